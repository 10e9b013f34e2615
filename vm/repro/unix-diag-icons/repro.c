// SPDX-License-Identifier: GPL-2.0
/*
 * ss -x on a listening AF_UNIX socket, after a datagram sender won a
 * race against its receiver.
 *
 * Two orders of an AF_UNIX socket's state lock (u->lock) and a receive
 * queue lock (rlock-AF_UNIX), in one lockdep subclass, SINGLE_DEPTH_NESTING:
 *   u->lock/1 -> rlock-AF_UNIX   unix_dgram_sendmsg() found the receiver's
 *                                queue full, locked both sockets
 *                                (unix_state_double_lock: the receiver
 *                                second when its address is the higher),
 *                                found room after all and queued the
 *                                datagram with the receiver still locked
 *   rlock-AF_UNIX -> u->lock/1   the sock_diag dump of a listener's
 *                                pending connections (UDIAG_SHOW_ICONS)
 *                                locked each embryo under the listener's
 *                                queue lock, nested in the same subclass
 * The dump closes the cycle: "possible deadlock in sk_diag_dump_icons".
 * The fix (af_unix: fix lockdep positive in sk_diag_dump_icons) gives the
 * dump a subclass of its own, U_LOCK_DIAG.
 *
 * The first order takes a race: senders fill the queues of receivers
 * that drain them, until a send sees a full queue that is no longer full
 * once both sockets are locked. Which order closed the cycle decides
 * the report's title, so the dump waits until lockdep's /proc/lockdep
 * shows the first order (the edge exists on either side of the fix).
 * Written for this toolkit from the fix's description. Exit status 0
 * when the dump ran, 3 when the race was not won within the time, 2 when
 * the kernel lacks what the program needs (UNIX_DIAG, /proc/lockdep).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define RACE_SECONDS 120
#define PHASE_SENDS 20000
#define TCP_LISTEN_STATE 10

static int sockets[2];		/* each the sender in turn */
static volatile int receiver = -1, stop;

static socklen_t abstract_name(struct sockaddr_un *a, const char *tag, int i)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	/* abstract: sun_path[0] is 0 */
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1,
			"lockdep-repro-%s-%d-%d", tag, (int)getpid(), i);
}

/* the receiver: drain whichever socket receives now, never sleeping */
static void *drain(void *arg)
{
	char b;

	(void)arg;
	while (!stop) {
		int fd = receiver;

		if (fd >= 0)
			recv(fd, &b, 1, MSG_DONTWAIT);
	}
	return NULL;
}

/* does lockdep know that u->lock/1 was held while a queue lock was taken? */
static int first_order_recorded(void)
{
	char line[512];
	int in_class = 0, found = 0;
	FILE *f = fopen("/proc/lockdep", "r");

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (line[0] != ' ')
			in_class = strstr(line, ": &u->lock/1\n") != NULL;
		else if (in_class && strstr(line, "-> [") &&
			 strstr(line, "] rlock-AF_UNIX\n"))
			found = 1;
	}
	fclose(f);
	return found;
}

/*
 * Two datagram sockets take turns: one connected to the other sends
 * without blocking into the other's queue while a thread drains it.
 * unix_state_double_lock() nests the socket of the higher address, so
 * one of the two directions locks the receiver second.
 */
static int race(void)
{
	struct sockaddr_un a[2];
	socklen_t len[2];
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	time_t end = time(NULL) + RACE_SECONDS;
	pthread_t t;
	int i, turn, won = 0;

	for (i = 0; i < 2; i++) {
		len[i] = abstract_name(&a[i], "dgram", i);
		sockets[i] = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		if (sockets[i] < 0 || bind(sockets[i], (struct sockaddr *)&a[i], len[i]) < 0) {
			perror("unix-diag-icons: datagram socket");
			return -1;
		}
	}
	if (pthread_create(&t, NULL, drain, NULL)) {
		fprintf(stderr, "unix-diag-icons: pthread_create failed\n");
		return -1;
	}
	for (turn = 0; !won && time(NULL) < end; turn ^= 1) {
		int s = sockets[turn], r = sockets[!turn], n;

		/* only the sender is connected: its peer does not point back */
		if (connect(sockets[!turn], &unspec, sizeof(unspec)) < 0 ||
		    connect(s, (struct sockaddr *)&a[!turn], len[!turn]) < 0) {
			perror("unix-diag-icons: connect");
			return -1;
		}
		receiver = r;
		for (n = 0; n < PHASE_SENDS; n++)
			if (send(s, "x", 1, 0) < 0 && errno != EAGAIN) {
				perror("unix-diag-icons: send");
				return -1;
			}
		won = first_order_recorded();
		if (won < 0) {
			fprintf(stderr, "unix-diag-icons: no /proc/lockdep (CONFIG_LOCKDEP)\n");
			return -2;
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	return won;
}

/* a listener with one connection not yet accepted, then the dump */
static int dump_icons(void)
{
	struct sockaddr_un a;
	socklen_t len = abstract_name(&a, "listen", 0);
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} msg = {
		.nlh = { .nlmsg_len = sizeof(msg),
			 .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.req = { .sdiag_family = AF_UNIX,
			 .udiag_states = 1 << TCP_LISTEN_STATE,
			 .udiag_show = UDIAG_SHOW_ICONS },
	};
	char buf[8192];
	int l, c, nl, done = 0, listeners = 0;

	l = socket(AF_UNIX, SOCK_STREAM, 0);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, len) < 0 ||
	    listen(l, 8) < 0 || connect(c, (struct sockaddr *)&a, len) < 0) {
		perror("unix-diag-icons: listener");
		return -1;
	}
	nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG);
	if (nl < 0 || sendto(nl, &msg, sizeof(msg), 0, (struct sockaddr *)&kernel,
			     sizeof(kernel)) < 0) {
		perror("unix-diag-icons: sock_diag request");
		return -1;
	}
	while (!done) {
		ssize_t n = recv(nl, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n <= 0) {
			perror("unix-diag-icons: sock_diag reply");
			return -1;
		}
		for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				fprintf(stderr, "unix-diag-icons: sock_diag: %s%s\n",
					strerror(-e->error), e->error == -ENOENT ?
					" (a kernel without CONFIG_UNIX_DIAG)" : "");
				return -2;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			listeners++;
		}
	}
	printf("unix-diag-icons: dumped %d listening socket(s) with their pending connections\n",
	       listeners);
	return 0;
}

int main(void)
{
	int won, rc;

	/* its lines interleave with stderr's in the workload's output */
	setvbuf(stdout, NULL, _IOLBF, 0);
	won = race();
	if (won < 0)
		return won == -2 ? 2 : 1;
	if (!won) {
		printf("unix-diag-icons: the sender did not win the race in %d s\n",
		       RACE_SECONDS);
		return 3;
	}
	printf("unix-diag-icons: the race was won (u->lock/1 -> rlock-AF_UNIX recorded)\n");
	rc = dump_icons();
	return rc == -2 ? 2 : rc < 0 ? 1 : 0;
}
