// SPDX-License-Identifier: GPL-2.0
/*
 * A reproducer in syzbot's shape for the scenario module's AB-BA pair
 * (lib/test_lockdep_scenarios.c): two threads loop for ever, one asking
 * for "ab-order" (order_a, then order_b), the other for "ba-order"
 * (order_b, then order_a). Each half is clean alone; both make lockdep
 * see a circular dependency. The module runs one scenario at a time
 * (EBUSY for the other). "ab-order" runs once before the threads start,
 * so the dependency that closes the cycle is always order_b -> order_a:
 * the one the fix (abba-fix.patch) takes away.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TRIGGER "/sys/kernel/debug/lockdep_scenarios/trigger"

static int trigger(const char *name)
{
	int fd = open(TRIGGER, O_WRONLY);

	if (fd < 0) {
		perror(TRIGGER);
		return -1;
	}
	if (write(fd, name, strlen(name)) < 0 && errno != EBUSY)
		perror(name);
	close(fd);
	return 0;
}

static void *trigger_loop(void *name)
{
	while (!trigger(name))
		usleep(100000);
	return NULL;
}

int main(void)
{
	pthread_t ab, ba;

	if (trigger("ab-order"))
		return 1;
	pthread_create(&ab, NULL, trigger_loop, "ab-order");
	pthread_create(&ba, NULL, trigger_loop, "ba-order");
	pthread_join(ab, NULL);
	pthread_join(ba, NULL);
	return 1;
}
