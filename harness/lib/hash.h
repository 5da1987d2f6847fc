/* SHA-256 for cache keys (OpenSSL's libcrypto). */
#ifndef CMB_HASH_H
#define CMB_HASH_H

#include <stddef.h>

struct hash;

struct hash *hash_new(void);
void hash_bytes(struct hash *h, const void *data, size_t len);
/* Adds a string and its terminator, so "ab"+"c" differs from "a"+"bc". */
void hash_str(struct hash *h, const char *s);
/* Adds a file's contents; -1 if it cannot be read. */
int hash_file(struct hash *h, const char *path);
/* 64 hex digits into out[65]; frees h. */
void hash_final(struct hash *h, char out[65]);

#endif
