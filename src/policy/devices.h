/* devices.h: the character devices a policy admits beside bwrap's /dev
 * (DESIGN 12): hardware encoders and decoders, for hardware transcoding. */
#ifndef SBEXEC_DEVICES_H
#define SBEXEC_DEVICES_H

#include <sys/types.h>

#include "util.h"

/* One node, opened once: what both backends give the command. */
struct device {
	char *path;		/* its own path, no link on the way */
	int fd;			/* O_PATH|O_NOFOLLOW, at 10 or above */
	dev_t dev, rdev;	/* where it lies; the device it is */
	ino_t ino;
};

struct devices {
	struct device *v;
	size_t n;
};

/* 1 when NAME is a named set: "dri" or "nvidia". */
int devices_is_set(const char *name);

/* The nodes of set NAME on this host, sorted, into OUT: what exists
 * of its names (the checks are devices_open's). */
void devices_members(const char *name, struct strv *out);

/* At load: PATH, absolute, is a character device at its own path (no
 * symbolic link on the way). 0, or -1 with the reason in *WHY. */
int devices_check(const char *path, char **why);

/* At run: every node of ENTRIES (the policy's "devices": sets and
 * paths) opened once, O_PATH|O_NOFOLLOW one component at a time, and
 * checked on the descriptor: a character device, of its set's driver
 * for a set's member. A node named twice is opened once. 0, or -1 with
 * the reason, allocated, in *WHY. */
int devices_open(const struct strv *entries, struct devices *d, char **why);

void devices_free(struct devices *d);

#endif
