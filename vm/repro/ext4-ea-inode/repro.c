// SPDX-License-Identifier: GPL-2.0
/*
 * A large extended attribute on ext4 with the ea_inode feature.
 *
 * A value too large for the inode and its xattr block goes into an inode
 * of its own, the EA inode (fs/ext4/xattr.c). setxattr() holds the
 * file's i_rwsem; ext4_xattr_inode_create() and ext4_xattr_inode_write()
 * take the new EA inode's i_rwsem under it. Both are ext4 regular-file
 * inodes, one lock class: lockdep reports a possible recursive locking,
 * "possible deadlock in" the function that nests it. The fix (ext4: fix
 * lockdep warning about recursive inode locking) gives EA inodes'
 * i_rwsem a subclass of their own, in ext4_xattr_inode_set_class().
 *
 * The guest has no mkfs.ext4 that sets ea_inode: busybox mke2fs makes a
 * small ext2 file system in a file, this program sets the ea_inode
 * incompatible feature in its superblock (busybox writes no metadata
 * checksums, so nothing else changes), attaches it to a loop device and
 * mounts it as ext4. Written for this toolkit from the fix's
 * description. Exit status 0 when the attribute was stored (either side
 * of the fix), 2 when the guest lacks what the program needs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define IMAGE "ea-inode.img"
#define MNT "ea-inode.mnt"
#define IMAGE_KIB 8192
#define SB_OFFSET 1024
#define SB_MAGIC 0x38		/* __le16 s_magic */
#define SB_INCOMPAT 0x60	/* __le32 s_feature_incompat */
#define INCOMPAT_EA_INODE 0x0400

static int fail(const char *what)
{
	fprintf(stderr, "ext4-ea-inode: %s: %s\n", what, strerror(errno));
	return 1;
}

static int make_fs(void)
{
	char kib[16];
	pid_t pid;
	int fd, status;

	fd = open(IMAGE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, IMAGE_KIB * 1024L) < 0)
		return fail(IMAGE);
	close(fd);
	snprintf(kib, sizeof(kib), "%d", IMAGE_KIB);
	pid = fork();
	if (pid == 0) {
		/* its report of the file system it made is of no interest */
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execlp("mke2fs", "mke2fs", "-F", "-b", "1024", IMAGE, kib, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return fail("mke2fs");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "ext4-ea-inode: mke2fs failed (status %#x)%s\n", status,
			WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
			": no mke2fs (busybox's)" : "");
		return 2;
	}
	return 0;
}

/* set the ea_inode feature in the superblock busybox wrote */
static int set_ea_inode(void)
{
	unsigned char sb[1024];
	uint32_t incompat;
	int fd = open(IMAGE, O_RDWR);

	if (fd < 0 || pread(fd, sb, sizeof(sb), SB_OFFSET) != sizeof(sb))
		return fail("reading the superblock");
	if (sb[SB_MAGIC] != 0x53 || sb[SB_MAGIC + 1] != 0xef) {
		fprintf(stderr, "ext4-ea-inode: no ext2 superblock in %s\n", IMAGE);
		return 1;
	}
	memcpy(&incompat, sb + SB_INCOMPAT, 4);	/* x86: little endian */
	incompat |= INCOMPAT_EA_INODE;
	memcpy(sb + SB_INCOMPAT, &incompat, 4);
	if (pwrite(fd, sb, sizeof(sb), SB_OFFSET) != sizeof(sb) || fsync(fd) < 0)
		return fail("writing the superblock");
	close(fd);
	return 0;
}

static int mount_loop(char *dev, size_t size)
{
	int ctl, n, loop, img;

	ctl = open("/dev/loop-control", O_RDWR);
	if (ctl < 0) {
		fprintf(stderr, "ext4-ea-inode: /dev/loop-control: %s (CONFIG_BLK_DEV_LOOP)\n",
			strerror(errno));
		return 2;
	}
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (n < 0)
		return fail("LOOP_CTL_GET_FREE");
	snprintf(dev, size, "/dev/loop%d", n);
	loop = open(dev, O_RDWR);
	img = open(IMAGE, O_RDWR);
	if (loop < 0 || img < 0 || ioctl(loop, LOOP_SET_FD, img) < 0)
		return fail(dev);
	close(img);
	close(ctl);
	if (mkdir(MNT, 0700) < 0 && errno != EEXIST)
		return fail(MNT);
	if (mount(dev, MNT, "ext4", 0, NULL) < 0)
		return fail("mounting the image as ext4");
	return loop;
}

int main(void)
{
	static char value[8192];
	char dev[32];
	int rc, loop, fd;

	/* its lines interleave with stderr's in the workload's output */
	setvbuf(stdout, NULL, _IOLBF, 0);

	rc = make_fs();
	if (rc)
		return rc;
	rc = set_ea_inode();
	if (rc)
		return rc;
	loop = mount_loop(dev, sizeof(dev));
	if (loop <= 2)
		return loop;
	fd = open(MNT "/file", O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return fail(MNT "/file");
	/* larger than any xattr block of a 1 KiB-block file system */
	memset(value, 'v', sizeof(value));
	if (fsetxattr(fd, "trusted.lockdep-repro", value, sizeof(value), 0) < 0)
		return fail("fsetxattr of 8 KiB");
	close(fd);
	printf("ext4-ea-inode: an 8 KiB attribute stored in an EA inode on %s\n", dev);
	if (umount(MNT) < 0)
		return fail("umount");
	ioctl(loop, LOOP_CLR_FD);
	return 0;
}
