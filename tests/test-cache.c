/* The cache's bound: above it the least recently used entries go, never one in use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cache.h"

static char dir[] = "/tmp/cmb-cache-XXXXXX";
static const time_t now = 1800000000;

/* An entry of 16 KiB of data, last used `age` seconds before now. */
static void put(const char *name, long age, bool as_dir)
{
	char *p = path_join(dir, name), *f = as_dir ? path_join(p, "bzImage") : xstrdup(p);
	char data[16384];
	struct timespec t[2] = { { now - age, 0 }, { now - age, 0 } };

	memset(data, 'x', sizeof(data));
	if (as_dir)
		mkdir_p(p);
	assert_int_equal(write_file(f, data, sizeof(data)), 0);
	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	free(f);
	free(p);
}

/* What the entry occupies on disk (its directory and its one file). */
static uint64_t use(const char *name)
{
	char *p = path_join(dir, name), *f = path_join(p, "bzImage");
	struct stat st;
	uint64_t n = 0;

	if (!stat(p, &st))
		n += (uint64_t)st.st_blocks * 512;
	if (!stat(f, &st))
		n += (uint64_t)st.st_blocks * 512;
	free(f);
	free(p);
	return n;
}

static bool has(const char *name)
{
	char *p = path_join(dir, name);
	bool e = path_exists(p);

	free(p);
	return e;
}

static void test_oldest_go_first(void **state)
{
	struct strlist keep = { 0 };
	uint64_t left = 0, freed, bound;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put("k-old", 40 * 86400, true);       /* the oldest, but in use: kept */
	put("k-older", 30 * 86400, true);
	put("img-mid.img", 20 * 86400, false);
	put("img-new.img", 10 * 86400, false);
	put("k-now", 60, true);               /* used a minute ago: kept */
	{
		char *log = path_join(dir, "k-older.log");

		assert_int_equal(write_file(log, "build log\n", 10), 0);
		free(log);
	}
	sl_add(&keep, "k-old");
	/* a bound just below the four younger entries: the oldest free one and
	 * then the next oldest go, and the rest fits */
	bound = use("k-old") + use("k-now") + use("img-mid.img") + use("img-new.img") - 1;
	freed = cache_prune(dir, bound, &keep, 3600, now, NULL, &left);
	assert_true(freed > 0);
	assert_true(left <= bound);
	assert_true(has("k-old"));            /* in use */
	assert_true(has("k-now"));            /* recent */
	assert_false(has("k-older"));         /* the oldest free one */
	assert_false(has("k-older.log"));     /* its log with it */
	assert_false(has("img-mid.img"));
	assert_true(has("img-new.img"));      /* under the bound once the older went */
	/* under the bound: nothing more goes */
	assert_int_equal(cache_prune(dir, 1 << 30, &keep, 3600, now, NULL, &left), 0);
	sl_free(&keep);
}

static void test_locked_and_clean(void **state)
{
	char *lock = path_join(dir, ".img-new.img.lock");
	int fd = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	pid_t child;
	int st;

	(void)state;
	/* another process holds the entry's lock: it is being built or used */
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	child = fork();
	if (!child) {
		cache_prune(dir, 0, NULL, 0, now, NULL, NULL);
		_exit(0);
	}
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(has("img-new.img"));
	assert_false(has("k-now"));           /* clean: recent ones go too */
	flock(fd, LOCK_UN);
	close(fd);
	cache_prune(dir, 0, NULL, 0, now, NULL, NULL);
	assert_false(has("img-new.img"));
	assert_false(has("k-old"));
	unlink(lock);
	free(lock);
	rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oldest_go_first),
		cmocka_unit_test(test_locked_and_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
