// SPDX-License-Identifier: GPL-2.0
/*
 * A force-feedback effect uploaded through evdev to a uinput device.
 *
 * Four mutexes meet here (drivers/input/misc/uinput.c, ff-core.c,
 * input.c, evdev.c):
 *   uinput's udev->mutex -> input_mutex    UI_DEV_CREATE registers the device
 *   input_mutex -> dev->mutex              the keyboard handler opens it
 *   dev->mutex -> ff->mutex                closing the event node flushes
 *                                          its effects (input_ff_flush)
 *   ff->mutex -> udev->mutex               EVIOCSFF: input_ff_upload asks
 *                                          uinput's owner, which took
 *                                          udev->mutex to queue the request
 * The last edge closes the cycle: "possible circular locking dependency"
 * at the upload. The fix (Input: uinput - fix circular locking dependency
 * with ff-core) queues the request under a spinlock of its own instead.
 *
 * The program is both sides: a thread answers uinput's upload and erase
 * requests as a real force-feedback driver in user space does, the main
 * thread creates the device, opens and closes its event node once, then
 * uploads one rumble effect. Written for this toolkit from the fix's
 * description. Exit status 0 when the upload succeeded (either side of
 * the fix), 2 when the kernel has no uinput or evdev.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int ufd;

/* uinput's side: answer each upload and erase request with success. */
static void *ff_owner(void *arg)
{
	struct input_event ev;

	(void)arg;
	while (read(ufd, &ev, sizeof(ev)) == sizeof(ev)) {
		if (ev.type != EV_UINPUT)
			continue;
		if (ev.code == UI_FF_UPLOAD) {
			struct uinput_ff_upload up = { .request_id = ev.value };

			if (ioctl(ufd, UI_BEGIN_FF_UPLOAD, &up) == 0) {
				up.retval = 0;
				ioctl(ufd, UI_END_FF_UPLOAD, &up);
			}
		} else if (ev.code == UI_FF_ERASE) {
			struct uinput_ff_erase er = { .request_id = ev.value };

			if (ioctl(ufd, UI_BEGIN_FF_ERASE, &er) == 0) {
				er.retval = 0;
				ioctl(ufd, UI_END_FF_ERASE, &er);
			}
		}
	}
	return NULL;
}

/* /dev/input/eventN of the device uinput named SYSNAME (inputM) */
static int event_node(const char *sysname, char *path, size_t size)
{
	char dir[128];
	struct dirent *d;
	DIR *dp;
	int found = 0;

	snprintf(dir, sizeof(dir), "/sys/class/input/%s", sysname);
	dp = opendir(dir);
	if (!dp)
		return -1;
	while (!found && (d = readdir(dp)))
		if (strncmp(d->d_name, "event", 5) == 0) {
			snprintf(path, size, "/dev/input/%s", d->d_name);
			found = 1;
		}
	closedir(dp);
	return found ? 0 : -1;
}

static int fail(const char *what)
{
	fprintf(stderr, "uinput-ff: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct uinput_setup setup = { .id = { .bustype = BUS_VIRTUAL },
				      .name = "lockdep repro rumble pad",
				      .ff_effects_max = 1 };
	struct ff_effect effect = { .type = FF_RUMBLE, .id = -1,
				    .replay = { .length = 100 } };
	char sysname[64] = "", node[300];
	pthread_t owner;
	int efd, tries;

	/* its lines interleave with stderr's in the workload's output */
	setvbuf(stdout, NULL, _IOLBF, 0);

	ufd = open("/dev/uinput", O_RDWR);
	if (ufd < 0 && errno == ENOENT)
		ufd = open("/dev/input/uinput", O_RDWR);
	if (ufd < 0) {
		fprintf(stderr, "uinput-ff: no uinput: %s (CONFIG_INPUT_UINPUT)\n",
			strerror(errno));
		return 2;
	}
	/* a key, so that the keyboard handler opens the device at creation */
	if (ioctl(ufd, UI_SET_EVBIT, EV_KEY) < 0 ||
	    ioctl(ufd, UI_SET_KEYBIT, KEY_A) < 0 ||
	    ioctl(ufd, UI_SET_EVBIT, EV_FF) < 0 ||
	    ioctl(ufd, UI_SET_FFBIT, FF_RUMBLE) < 0 ||
	    ioctl(ufd, UI_DEV_SETUP, &setup) < 0 ||
	    ioctl(ufd, UI_DEV_CREATE) < 0)
		return fail("creating the device");
	if (ioctl(ufd, UI_GET_SYSNAME(sizeof(sysname)), sysname) < 0)
		return fail("UI_GET_SYSNAME");
	/* devtmpfs makes the node a moment after the device appears */
	for (tries = 0; event_node(sysname, node, sizeof(node)) < 0 ||
			access(node, F_OK) < 0; tries++) {
		if (tries == 50) {
			fprintf(stderr, "uinput-ff: no event node for %s (CONFIG_INPUT_EVDEV)\n",
				sysname);
			return 2;
		}
		usleep(100 * 1000);
	}

	/* open and close: the close flushes effects under dev->mutex */
	efd = open(node, O_RDWR);
	if (efd < 0)
		return fail(node);
	close(efd);

	if (pthread_create(&owner, NULL, ff_owner, NULL))
		return fail("pthread_create");
	efd = open(node, O_RDWR);
	if (efd < 0)
		return fail(node);
	if (ioctl(efd, EVIOCSFF, &effect) < 0)
		return fail("EVIOCSFF");
	printf("uinput-ff: effect %d uploaded to %s\n", effect.id, node);
	close(efd);
	ioctl(ufd, UI_DEV_DESTROY);
	return 0;
}
