// SPDX-License-Identifier: GPL-2.0
/* bench/graph-irqsoff: fill lockdep with many classes (run.sh says how). */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/kthread.h>
#include <linux/delay.h>

static unsigned int nr_classes = 7500;
module_param(nr_classes, uint, 0444);
/* more classes, one per millisecond or so, from a thread */
static unsigned int trickle;
module_param(trickle, uint, 0444);

struct lgs { struct lock_class_key key; spinlock_t lock; };
static struct lgs *lgs;
static unsigned int made;

static void add_one(unsigned int i)
{
	char *name = kasprintf(GFP_KERNEL, "lg_stress_%u", i);

	lockdep_register_key(&lgs[i].key);
	spin_lock_init(&lgs[i].lock);
	lockdep_set_class_and_name(&lgs[i].lock, &lgs[i].key, name);
	spin_lock(&lgs[i].lock);
	spin_unlock(&lgs[i].lock);
	if (i) {
		spin_lock(&lgs[i - 1].lock);
		spin_lock(&lgs[i].lock);
		spin_unlock(&lgs[i].lock);
		spin_unlock(&lgs[i - 1].lock);
	}
	made = i + 1;
}

static int trickle_fn(void *unused)
{
	unsigned int i;

	for (i = nr_classes; i < nr_classes + trickle && !kthread_should_stop(); i++) {
		add_one(i);
		msleep(1);
	}
	pr_info("lg_stress: trickle done, %u classes\n", made);
	while (!kthread_should_stop())
		msleep(100);
	return 0;
}

static struct task_struct *th;

static int __init lgs_init(void)
{
	unsigned int i;

	lgs = vzalloc(sizeof(*lgs) * (nr_classes + trickle));
	if (!lgs)
		return -ENOMEM;
	for (i = 0; i < nr_classes; i++) {
		add_one(i);
		if (!(i % 256))
			cond_resched();
	}
	pr_info("lg_stress: %u classes\n", made);
	if (trickle)
		th = kthread_run(trickle_fn, NULL, "lg_stress");
	return 0;
}
module_init(lgs_init);
MODULE_LICENSE("GPL");
