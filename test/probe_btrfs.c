/* probe_btrfs: the btrfs subvolume ioctls of issue 29 finding 2, each
 * made on a directory opened read-only, as native code in the sandbox
 * makes them. One "NAME=RESULT" line per probe, RESULT OK (read: the
 * file's first line) or the errno name. Used by test/btrfs.bats, built
 * as a program (the control) and as the payload of helper.bash's attack.
 *
 *	probe_btrfs snap:SRC:DIR:NAME	snapshot subvolume SRC as DIR/NAME
 *	probe_btrfs subvol:DIR:NAME	a new subvolume DIR/NAME
 *	probe_btrfs ro:SUBVOL		set SUBVOL read-only (rw: undo)
 *	probe_btrfs read:PATH		read PATH
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define FIELDS_MAX 4

static const char *answer(int ok)
{
	return ok ? "OK" : strerrorname_np(errno);
}

static int dir_fd(const char *path)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int p_snap(char **f)
{
	struct btrfs_ioctl_vol_args_v2 a;
	int src = dir_fd(f[1]), dir = dir_fd(f[2]);

	memset(&a, 0, sizeof(a));
	a.fd = src;
	snprintf(a.name, sizeof(a.name), "%s", f[3]);
	return src >= 0 && dir >= 0 &&
	    ioctl(dir, BTRFS_IOC_SNAP_CREATE_V2, &a) == 0;
}

static int p_subvol(char **f)
{
	struct btrfs_ioctl_vol_args a;
	int dir = dir_fd(f[1]);

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "%s", f[2]);
	return dir >= 0 && ioctl(dir, BTRFS_IOC_SUBVOL_CREATE, &a) == 0;
}

static int set_ro(const char *path, int on)
{
	uint64_t flags;
	int fd = dir_fd(path);

	if (fd < 0 || ioctl(fd, BTRFS_IOC_SUBVOL_GETFLAGS, &flags) < 0)
		return 0;
	flags = on ? flags | BTRFS_SUBVOL_RDONLY : flags & ~BTRFS_SUBVOL_RDONLY;
	return ioctl(fd, BTRFS_IOC_SUBVOL_SETFLAGS, &flags) == 0;
}

static int p_ro(char **f)
{
	return set_ro(f[1], 1);
}

static int p_rw(char **f)
{
	return set_ro(f[1], 0);
}

static void p_read(char **f)
{
	char buf[256] = "";
	FILE *in = fopen(f[1], "r");

	if (in == NULL) {
		printf("read=%s\n", strerrorname_np(errno));
		return;
	}
	if (fgets(buf, sizeof(buf), in) != NULL)
		buf[strcspn(buf, "\n")] = '\0';
	printf("read=%s\n", buf);
	fclose(in);
}

static const struct {
	const char *name;
	int fields;
	int (*fn)(char **);
} probes[] = {
	{ "snap", 4, p_snap }, { "subvol", 3, p_subvol },
	{ "ro", 2, p_ro }, { "rw", 2, p_rw },
};

static int one(char *arg)
{
	char *f[FIELDS_MAX + 1] = { 0 };
	int n = 0;

	for (char *s = strtok(arg, ":"); s != NULL && n <= FIELDS_MAX;
	    s = strtok(NULL, ":"))
		f[n++] = s;
	if (n == 2 && strcmp(f[0], "read") == 0) {
		p_read(f);
		return 0;
	}
	for (size_t i = 0; i < sizeof(probes) / sizeof(*probes); i++)
		if (strcmp(f[0], probes[i].name) == 0 &&
		    n == probes[i].fields) {
			errno = 0;
			printf("%s=%s\n", f[0], answer(probes[i].fn(f)));
			return 0;
		}
	fprintf(stderr, "probe_btrfs: %s: no such probe\n", f[0]);
	return 2;
}

static int run(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++)
		rc |= one(argv[i]);
	fflush(stdout);
	return rc;
}

#include "payload.h"
PROBE_MAIN(run, "probe_btrfs")
