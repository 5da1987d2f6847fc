#include "lib/hash.h"
#include "lib/util.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

struct hash {
	EVP_MD_CTX *ctx;
};

struct hash *hash_new(void)
{
	struct hash *h = xmalloc(sizeof(*h));

	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || !EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL)) {
		err_msg("cannot initialise SHA-256");
		abort();
	}
	return h;
}

void hash_bytes(struct hash *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

void hash_str(struct hash *h, const char *s)
{
	hash_bytes(h, s, strlen(s) + 1);
}

int hash_file(struct hash *h, const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		hash_bytes(h, buf, n);
	n = ferror(f);
	fclose(f);
	return n ? -1 : 0;
}

void hash_final(struct hash *h, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	EVP_DigestFinal_ex(h->ctx, md, &len);
	for (unsigned int i = 0; i < len && i < 32; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
	out[64] = '\0';
	EVP_MD_CTX_free(h->ctx);
	free(h);
}
