/* filter.c: the run's seccomp program. seccomp-gen builds one program
 * for each combination of FILTER_BASE's flags; the rules that the other
 * flags turn on or off return a mark there, and each is decided here,
 * the program copied: what was 28 variants in the binary is 3. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "sandbox/filter.h"
#include "util.h"

/* linux/filter.h and linux/seccomp.h, which musl's headers lack. */
#define RET_K 0x06
#define RET_ACTION 0xffff0000U
#define RET_TRACE 0x7ff00000U
#define RET_ALLOW 0x7fff0000U
#define RET_ERRNO 0x00050000U
#define RET_KILL_PROCESS 0x80000000U

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

static uint32_t decided(uint32_t mark, int flags)
{
	int allow;

	switch (mark) {
	case MARK_UNIX:
		allow = flags & FILTER_UNIX;
		break;
	case MARK_INET:
		allow = flags & FILTER_INET;
		break;
	case MARK_SIGNAL:
		allow = !(flags & FILTER_NOSIGNAL);
		break;
	case MARK_DEVICES:
		allow = flags & FILTER_DEVICES;
		break;
	default:
		return RET_KILL_PROCESS;
	}
	return allow ? RET_ALLOW : RET_ERRNO | EPERM;
}

unsigned char *filter_make(int flags, size_t *len)
{
	const unsigned char *base = seccomp_bases[flags & FILTER_BASE];
	struct insn *p;

	if (base == NULL)	/* a combination no backend asks for */
		diex(EXIT_SBEXEC, "no seccomp program for flags %d", flags);
	*len = seccomp_base_lens[flags & FILTER_BASE];
	p = xmalloc(*len);
	memcpy(p, seccomp_bases[flags & FILTER_BASE], *len);
	for (size_t i = 0; i < *len / sizeof(*p); i++)
		if (p[i].code == RET_K && (p[i].k & RET_ACTION) == RET_TRACE)
			p[i].k = decided(p[i].k & ~RET_ACTION, flags);
	return (unsigned char *)p;
}
