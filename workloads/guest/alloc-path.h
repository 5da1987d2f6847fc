/*
 * How cma-alloc asks for a buffer (--path; scenario key alloc-path):
 *   heap     the DMA-BUF heap of the area (/dev/dma_heap/<area>, the
 *            default area's), as Android's camera and video HALs allocate:
 *            DMA_HEAP_IOCTL_ALLOC, the buffer mapped and each page touched
 *            once (read: it must be zero), unmapped; freed by closing it.
 *   dma      dma_alloc_coherent() from our module (workloads/kmod/), as a
 *            driver allocates: <debugfs>/cmabench_dma/{alloc,free}.
 *   debugfs  cma_alloc() through <debugfs>/cma/<area>/{alloc,free}, with
 *            the alignment order written to alloc_align (0 by default: a
 *            request no driver makes, the worst case).
 * Both device paths ask cma_alloc() for min(get_order(size),
 * CONFIG_CMA_ALIGNMENT) and zero the buffer. A dma request whose pages are
 * not in the area came from the buddy allocator (dma-direct falls back to
 * it when cma_alloc() fails): it is a CMA failure, recorded as such.
 *
 * A request may run in a child (its deadline): heap buffers reach the
 * parent as file descriptors over a socket (SCM_RIGHTS) as soon as they
 * are made, so a burst's buffers are held and freed by the parent; a
 * killed child's buffer not yet sent dies with it.
 */
#ifndef ALLOC_PATH_H
#define ALLOC_PATH_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "area.h"

/* <linux/dma-heap.h>, so that the guest builds against any libc headers */
struct cmb_dma_heap_data {
	uint64_t len;
	uint32_t fd;
	uint32_t fd_flags;
	uint64_t heap_flags;
};
#define CMB_DMA_HEAP_IOCTL_ALLOC _IOWR('H', 0x0, struct cmb_dma_heap_data)

/* CONFIG_CMA_ALIGNMENT in every kernel configuration of ours (the default) */
#define CMB_CMA_ALIGNMENT 8

#define CMB_DMA_DIR "/sys/kernel/debug/cmabench_dma"

enum path_kind { PATH_DEBUGFS, PATH_DMA, PATH_HEAP };

static const char *const path_names[] = { "debugfs", "dma", "heap" };

struct alloc_path {
	enum path_kind kind;
	int align;                  /* debugfs: the order, -1: as dma_alloc_contiguous() */
	int verify;                 /* read every byte of a buffer (outside its time) */
	char alloc[4096], free[4096], heap[512];
	long base_pfn, count;       /* the area: a dma buffer outside came from the buddy allocator */
	int sock[2];                /* heap: buffers from the requests' process */
	int fds[1024];              /* heap: the buffers held */
	int nfds;
};

/* What a request got besides its time. */
struct path_result {
	int err;                    /* 0: the area's pages */
	int held;                   /* pages to free with the burst (a fallback's too) */
	int cma;                    /* 1 from the area, 0 not (fallback), -1 unknown */
	int zeroed;                 /* 1 read zero, 0 did not, -1 not checked */
};

/* get_order() of pages: the smallest order whose block holds them */
static inline int path_order(long pages)
{
	int o = 0;

	while ((1L << o) < pages)
		o++;
	return o;
}

/* The alignment order cma_alloc() gets for a request of pages. */
static inline int path_align(const struct alloc_path *p, long pages)
{
	int o = path_order(pages);

	if (p->kind == PATH_DEBUGFS && p->align >= 0)
		return p->align;
	return o < CMB_CMA_ALIGNMENT ? o : CMB_CMA_ALIGNMENT;
}

static inline int path_write_long(const char *path, long v)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld", v);
	int fd = open(path, O_WRONLY);
	int e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != len)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	return e;
}

/* Reads "pfn pages" of the module's last buffer; -1 when it cannot. */
static inline long path_dma_last_pfn(void)
{
	long pfn = -1, pages;
	FILE *f = fopen(CMB_DMA_DIR "/last", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pfn, &pages) != 2)
		pfn = -1;
	fclose(f);
	return pfn;
}

/* Names the files of the path; 0, or an errno with the reason on stderr. */
static inline int path_open(struct alloc_path *p, const char *cma_dir, const char *area)
{
	/* debugfs and dma write counts to an alloc and a free file */
	if (p->kind == PATH_DMA) {
		snprintf(p->alloc, sizeof(p->alloc), CMB_DMA_DIR "/alloc");
		snprintf(p->free, sizeof(p->free), CMB_DMA_DIR "/free");
	} else {
		snprintf(p->alloc, sizeof(p->alloc), "%s/%s/alloc", cma_dir, area);
		snprintf(p->free, sizeof(p->free), "%s/%s/free", cma_dir, area);
	}
	p->base_pfn = area_debugfs(area, "base_pfn");
	p->count = area_debugfs(area, "count");
	p->sock[0] = p->sock[1] = -1;
	if (p->kind == PATH_HEAP) {
		snprintf(p->heap, sizeof(p->heap), "/dev/dma_heap/%s", area);
		if (access(p->heap, R_OK)) {
			fprintf(stderr, "cma-alloc: %s: %s (the heap serves the default area only)\n",
				p->heap, strerror(errno));
			return errno;
		}
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, p->sock))
			return errno;
		return 0;
	}
	if (access(p->alloc, W_OK)) {
		fprintf(stderr, "cma-alloc: %s: %s%s\n", p->alloc, strerror(errno),
			p->kind == PATH_DMA ? " (is cmabench_dma.ko loaded?)" : "");
		return errno;
	}
	return 0;
}

/* debugfs: the alignment for a request of pages, before its time starts. */
static inline int path_prepare(const struct alloc_path *p, const char *cma_dir, const char *area,
			       long pages)
{
	char knob[4096];
	int e;

	if (p->kind != PATH_DEBUGFS || !p->align)
		return 0;
	snprintf(knob, sizeof(knob), "%s/%s/alloc_align", cma_dir, area);
	e = path_write_long(knob, path_align(p, pages));
	if (e)
		fprintf(stderr, "cma-alloc: %s: %s (a kernel without our debugfs alloc_align: "
			"only alignment 0)\n", knob, strerror(e));
	return e;
}

/* The first word of every page read (the touch), all of it with verify: zero? */
static inline int path_check_zero(const unsigned char *m, long pages, int verify)
{
	long words = verify ? pages * 4096 / (long)sizeof(long) : 0;
	const long *w = (const long *)m;

	for (long i = 0; i < pages; i++)
		if (*(const volatile long *)(m + i * 4096))
			return 0;
	for (long i = 0; i < words; i++)
		if (w[i])
			return 0;
	return 1;
}

/* heap: hands the buffer's fd to the holder (which may be this process). */
static inline void path_send_fd(const struct alloc_path *p, int fd)
{
	char c = 0, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	sendmsg(p->sock[1], &mh, MSG_DONTWAIT);
}

/* heap: takes every buffer sent so far; the number taken. */
static inline int path_collect(struct alloc_path *p)
{
	int n = 0;

	while (p->kind == PATH_HEAP && p->nfds < (int)(sizeof(p->fds) / sizeof(p->fds[0]))) {
		char c, ctl[CMSG_SPACE(sizeof(int))];
		struct iovec iov = { .iov_base = &c, .iov_len = 1 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *cm;

		if (recvmsg(p->sock[0], &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) <= 0)
			break;
		cm = CMSG_FIRSTHDR(&mh);
		if (cm && cm->cmsg_type == SCM_RIGHTS) {
			memcpy(&p->fds[p->nfds++], CMSG_DATA(cm), sizeof(int));
			n++;
		}
	}
	return n;
}

/* heap: allocate, map, touch every page, unmap; the fd to the holder. */
static inline void path_heap_request(const struct alloc_path *p, long pages,
				     struct path_result *r)
{
	struct cmb_dma_heap_data d = { .len = (uint64_t)pages * 4096,
				       .fd_flags = O_RDWR | O_CLOEXEC };
	int heap = open(p->heap, O_RDONLY | O_CLOEXEC);
	unsigned char *m;

	if (heap < 0 || ioctl(heap, CMB_DMA_HEAP_IOCTL_ALLOC, &d)) {
		r->err = errno;
		if (heap >= 0)
			close(heap);
		return;
	}
	close(heap);
	m = mmap(NULL, d.len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)d.fd, 0);
	if (m == MAP_FAILED) {
		r->err = errno;
		close((int)d.fd);
		return;
	}
	r->zeroed = path_check_zero(m, pages, p->verify);
	munmap(m, d.len);
	r->cma = 1;                 /* the CMA heap has no other source */
	r->held = (int)pages;
	path_send_fd(p, (int)d.fd);
	close((int)d.fd);
}

/*
 * One request, timed by the caller around it: the buffer made (and, on the
 * heap, mapped and touched). What is checked afterwards (a dma buffer's
 * pfn, --verify's reading) is not in the request's time: path_check().
 */
static inline void path_request(const struct alloc_path *p, long pages, struct path_result *r)
{
	*r = (struct path_result){ .cma = -1, .zeroed = -1 };
	if (p->kind == PATH_HEAP) {
		path_heap_request(p, pages, r);
		return;
	}
	r->err = path_write_long(p->alloc, pages);
	if (!r->err)
		r->held = (int)pages;
}

/* After the request's time: where its pages came from, and are they zero. */
static inline void path_check(const struct alloc_path *p, long pages, struct path_result *r)
{
	if (r->err || p->kind != PATH_DMA)
		return;
	long pfn = path_dma_last_pfn();

	if (pfn >= 0 && p->base_pfn >= 0 && p->count > 0) {
		r->cma = pfn >= p->base_pfn && pfn + pages <= p->base_pfn + p->count;
		if (!r->cma)
			r->err = ENOMEM;    /* the buddy allocator's, not the area's */
	}
	if (p->verify)
		r->zeroed = area_read_long(CMB_DMA_DIR "/zeroed") == 1;
}

/* Frees the burst's buffers: pages of them (debugfs, dma), every one (heap). */
static inline int path_free(struct alloc_path *p, long pages)
{
	if (p->kind != PATH_HEAP)
		return pages ? path_write_long(p->free, pages) : 0;
	path_collect(p);
	for (int i = 0; i < p->nfds; i++)
		close(p->fds[i]);
	p->nfds = 0;
	return 0;
}

#endif
