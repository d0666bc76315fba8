/* filter.h: the seccomp filter variants tools/seccomp-gen.c builds at
 * build time and the binary embeds (DESIGN 3 and 9). */
#ifndef SBEXEC_FILTER_H
#define SBEXEC_FILTER_H

enum {
	FILTER_UNIX = 1,	/* allowUnixSockets: AF_UNIX and socketpair */
	FILTER_INET = 2,	/* AF_INET and AF_INET6 */
	FILTER_LANDLOCK = 4,	/* no namespaces, as bwrap's --disable-userns */
	FILTER_NOSIGNAL = 8,	/* no signal to any process (Landlock < 6) */
	FILTER_NOTRUNC = 16,	/* no truncation but through a descriptor
				 * open for writing (Landlock < 3) */
	FILTER_DEVICES = 32,	/* the policy's devices: their drivers'
				 * ioctl types */
	FILTER_VARIANTS = 64	/* those bwrap and Landlock use are built */
};

extern const unsigned char *const seccomp_filters[FILTER_VARIANTS];
extern const unsigned long seccomp_filter_lens[FILTER_VARIANTS];

#endif
