/* filter.h: the seccomp programs tools/seccomp-gen.c builds at build
 * time and the binary embeds (DESIGN 3 and 9), and the run's filter
 * that filter.c makes of one. */
#ifndef SBEXEC_FILTER_H
#define SBEXEC_FILTER_H

#include <stddef.h>

enum {
	FILTER_UNIX = 1,	/* allowUnixSockets: AF_UNIX and socketpair */
	FILTER_INET = 2,	/* AF_INET and AF_INET6 */
	FILTER_LANDLOCK = 4,	/* no namespaces, as bwrap's --disable-userns */
	FILTER_NOSIGNAL = 8,	/* no signal to any process (Landlock < 6) */
	FILTER_NOTRUNC = 16,	/* no truncation but through a descriptor
				 * open for writing (Landlock < 3) */
	FILTER_DEVICES = 32,	/* the policy's devices: their drivers'
				 * ioctl types */
	FILTER_VARIANTS = 64
};

/* The flags that need a program of their own; each other flag decides
 * the returns that carry its mark, in every program. */
#define FILTER_BASE (FILTER_LANDLOCK | FILTER_NOTRUNC)

/* A mark: SECCOMP_RET_TRACE with this data, made ALLOW or EPERM. */
enum {
	MARK_FIRST = 0x5e01,
	MARK_UNIX = MARK_FIRST,	/* allowed with FILTER_UNIX */
	MARK_INET,		/* allowed with FILTER_INET */
	MARK_SIGNAL,		/* allowed without FILTER_NOSIGNAL */
	MARK_DEVICES,		/* allowed with FILTER_DEVICES */
	MARK_LAST = MARK_DEVICES
};

/* Indexed by flags & FILTER_BASE; NULL where no backend uses it. */
extern const unsigned char *const seccomp_bases[FILTER_VARIANTS];
extern const unsigned long seccomp_base_lens[FILTER_VARIANTS];

/* The program for FLAGS in a new buffer, *LEN bytes: its base with
 * every mark decided; a return of any other TRACE kills the process. */
unsigned char *filter_make(int flags, size_t *len);

#endif
