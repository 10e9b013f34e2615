// SPDX-License-Identifier: GPL-2.0
/*
 * Where the agent talks: the virtio-serial port whose sysfs name matches
 * (the port's /dev node races with boot, so it is waited for), or, for
 * tests without a VM, a listening UNIX socket standing in for QEMU's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"

#define PORTS_DIR	"/sys/class/virtio-ports"

/* Does /sys/class/virtio-ports/@dev/name hold @name? */
static int port_name_matches(const char *dev, const char *name)
{
	char path[PATH_MAX], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PORTS_DIR "/%s/name", dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, name);
}

/* Try once: the open fd, or -errno (-ENOENT while the port is not there). */
static int port_try_open(const char *name)
{
	char dev[PATH_MAX];
	struct dirent *de;
	int fd = -ENOENT;
	DIR *dir;

	dir = opendir(PORTS_DIR);
	if (!dir)
		return -ENOENT;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || !port_name_matches(de->d_name, name))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		fd = open(dev, O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			fd = -errno;
		else
			fprintf(stderr, "lockdep-agent: serving on %s (%s)\n",
				dev, name);
		break;
	}
	closedir(dir);
	return fd;
}

int agent_port_open(const char *name, int wait_s)
{
	const struct timespec pause = { .tv_nsec = 100 * 1000 * 1000 };
	int64_t deadline = proto_now_ms() + wait_s * 1000LL;
	int fd;

	for (;;) {
		fd = port_try_open(name);
		if (fd >= 0)
			return fd;
		if (fd != -ENOENT || proto_now_ms() >= deadline)
			break;
		nanosleep(&pause, NULL);
	}
	if (fd == -ENOENT)
		fprintf(stderr,
			"lockdep-agent: no virtio port named '%s' after %d s (is CONFIG_VIRTIO_CONSOLE enabled?)\n",
			name, wait_s);
	else
		fprintf(stderr, "lockdep-agent: unable to open port '%s': %s\n",
			name, strerror(-fd));
	return -1;
}

int agent_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "lockdep-agent: socket path '%s' is too long\n",
			path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("lockdep-agent: socket");
		return -1;
	}
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1)) {
		fprintf(stderr, "lockdep-agent: unable to listen on '%s': %s\n",
			path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}
