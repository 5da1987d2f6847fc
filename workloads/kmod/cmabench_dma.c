// SPDX-License-Identifier: GPL-2.0
/*
 * cmabench_dma: contiguous buffers allocated as a driver allocates them,
 * through dma_alloc_coherent(), for cmabench's guest driver (cma-alloc
 * --path dma).  A device of its own: on a device tree, the node
 * compatible with "cmabench,dma" (its memory-region, if any, bound with
 * of_reserved_mem_device_init(), the seeds' way of giving a device an
 * area); elsewhere (x86) a platform device registered here, which has no
 * area of its own and so allocates from the default one.
 *
 * <debugfs>/cmabench_dma/
 *   alloc    write N: one buffer of N pages (-ENOMEM when it fails)
 *   free     write N: frees whole earlier buffers, newest first, up to N
 *            pages, as <debugfs>/cma/<area>/free does
 *   last     read: "pfn pages" of the last buffer allocated (the guest
 *            tells a CMA buffer from a buddy fallback by its pfn)
 *   zeroed   read: 1 when the last buffer reads all zero, else 0
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

struct cmb_buf {
	struct list_head node;
	void *vaddr;
	dma_addr_t handle;
	unsigned long pages;
};

static struct device *cmb_dev;
static struct dentry *cmb_dir;
static struct platform_device *cmb_pdev;	/* registered here, without a DT node */
static LIST_HEAD(cmb_bufs);			/* newest first */
static DEFINE_MUTEX(cmb_lock);

static int cmb_alloc_set(void *data, u64 pages)
{
	struct cmb_buf *b;

	if (!pages || pages > ULONG_MAX >> PAGE_SHIFT)
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->pages = pages;
	b->vaddr = dma_alloc_coherent(cmb_dev, pages << PAGE_SHIFT, &b->handle,
				      GFP_KERNEL);
	if (!b->vaddr) {
		kfree(b);
		return -ENOMEM;
	}
	mutex_lock(&cmb_lock);
	list_add(&b->node, &cmb_bufs);
	mutex_unlock(&cmb_lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(cmb_alloc_fops, NULL, cmb_alloc_set, "%llu\n");

static void cmb_free_buf(struct cmb_buf *b)
{
	list_del(&b->node);
	dma_free_coherent(cmb_dev, b->pages << PAGE_SHIFT, b->vaddr, b->handle);
	kfree(b);
}

static int cmb_free_set(void *data, u64 pages)
{
	struct cmb_buf *b, *tmp;

	mutex_lock(&cmb_lock);
	list_for_each_entry_safe(b, tmp, &cmb_bufs, node) {
		if (b->pages > pages)
			break;
		pages -= b->pages;
		cmb_free_buf(b);
	}
	mutex_unlock(&cmb_lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(cmb_free_fops, NULL, cmb_free_set, "%llu\n");

static int cmb_last_show(struct seq_file *m, void *v)
{
	struct cmb_buf *b;

	mutex_lock(&cmb_lock);
	b = list_first_entry_or_null(&cmb_bufs, struct cmb_buf, node);
	/* dma-direct without a bus offset: the handle is the physical address */
	if (b)
		seq_printf(m, "%llu %lu\n", (u64)PHYS_PFN(b->handle), b->pages);
	mutex_unlock(&cmb_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cmb_last);

/* Read apart from "alloc": the check stays out of the request's time. */
static int cmb_zeroed_show(struct seq_file *m, void *v)
{
	struct cmb_buf *b;

	mutex_lock(&cmb_lock);
	b = list_first_entry_or_null(&cmb_bufs, struct cmb_buf, node);
	if (b)
		seq_printf(m, "%d\n",
			   !memchr_inv(b->vaddr, 0, b->pages << PAGE_SHIFT));
	mutex_unlock(&cmb_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cmb_zeroed);

static int cmb_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	int ret;

	if (cmb_dev)
		return -EBUSY;
	/* a device-tree node's memory-region: the area this device uses */
	if (dev->of_node) {
		ret = of_reserved_mem_device_init(dev);
		if (ret && ret != -ENODEV)
			return dev_err_probe(dev, ret, "memory-region\n");
	}
	ret = dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return dev_err_probe(dev, ret, "DMA mask\n");
	cmb_dev = dev;
	cmb_dir = debugfs_create_dir("cmabench_dma", NULL);
	debugfs_create_file("alloc", 0200, cmb_dir, NULL, &cmb_alloc_fops);
	debugfs_create_file("free", 0200, cmb_dir, NULL, &cmb_free_fops);
	debugfs_create_file("last", 0400, cmb_dir, NULL, &cmb_last_fops);
	debugfs_create_file("zeroed", 0400, cmb_dir, NULL, &cmb_zeroed_fops);
	dev_info(dev, "allocating from %s\n",
		 dev->of_node && dev->cma_area ? "its memory-region" : "the default area");
	return 0;
}

static void cmb_remove(struct platform_device *pdev)
{
	debugfs_remove_recursive(cmb_dir);
	mutex_lock(&cmb_lock);
	while (!list_empty(&cmb_bufs))
		cmb_free_buf(list_first_entry(&cmb_bufs, struct cmb_buf, node));
	mutex_unlock(&cmb_lock);
	if (pdev->dev.of_node)
		of_reserved_mem_device_release(&pdev->dev);
	cmb_dev = NULL;
}

static const struct of_device_id cmb_of_match[] = {
	{ .compatible = "cmabench,dma" },
	{ }
};
MODULE_DEVICE_TABLE(of, cmb_of_match);

static struct platform_driver cmb_driver = {
	.probe = cmb_probe,
	.remove = cmb_remove,
	.driver = {
		.name = "cmabench-dma",
		.of_match_table = cmb_of_match,
	},
};

static int __init cmb_init(void)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL, "cmabench,dma");
	int ret;

	of_node_put(np);
	ret = platform_driver_register(&cmb_driver);
	if (ret || np)
		return ret;
	/* no device tree names our device: one of our own, on the default area */
	cmb_pdev = platform_device_register_simple("cmabench-dma", -1, NULL, 0);
	if (IS_ERR(cmb_pdev)) {
		platform_driver_unregister(&cmb_driver);
		return PTR_ERR(cmb_pdev);
	}
	return 0;
}

static void __exit cmb_exit(void)
{
	platform_device_unregister(cmb_pdev);
	platform_driver_unregister(&cmb_driver);
}

module_init(cmb_init);
module_exit(cmb_exit);
MODULE_DESCRIPTION("cmabench: contiguous buffers through the DMA API");
MODULE_LICENSE("GPL");
