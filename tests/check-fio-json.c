/*
 * check-fio-json FILE: exits 0 if FILE is fio JSON output whose first job
 * did I/O (read or write io_bytes > 0) without error (verification
 * failures included), and prints that job's numbers.
 */
#include "lib/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long get_ll(json_object *o, const char *a, const char *b)
{
	json_object *x, *y;

	if (!json_object_object_get_ex(o, a, &x) || !json_object_object_get_ex(x, b, &y))
		return -1;
	return json_object_get_int64(y);
}

int main(int argc, char **argv)
{
	json_object *root, *jobs, *job;
	json_object *e;
	char *text, *start;
	long long rd, wr, error = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: check-fio-json FILE\n");
		return 2;
	}
	/* fio stopped by a signal writes "fio: terminating on signal 15" into
	 * its output file before the JSON: start at the first '{'. */
	text = read_file(argv[1], NULL);
	start = text ? strchr(text, '{') : NULL;
	root = start ? json_tokener_parse(start) : NULL;
	free(text);
	if (!root) {
		fprintf(stderr, "%s: not fio JSON\n", argv[1]);
		return 1;
	}
	if (!json_object_object_get_ex(root, "jobs", &jobs) || json_object_array_length(jobs) < 1) {
		fprintf(stderr, "%s: no jobs\n", argv[1]);
		return 1;
	}
	job = json_object_array_get_idx(jobs, 0);
	rd = get_ll(job, "read", "io_bytes");
	wr = get_ll(job, "write", "io_bytes");
	if (json_object_object_get_ex(job, "error", &e))
		error = json_object_get_int64(e);
	printf("read_bytes=%lld write_bytes=%lld read_iops=%lld error=%lld\n", rd, wr,
	       get_ll(job, "read", "iops"), error);
	json_object_put(root);
	return (rd > 0 || wr > 0) && error == 0 ? 0 : 1;
}
