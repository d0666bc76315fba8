/* filter-dump: the seccomp program sbexec loads under Landlock for the
 * bench's policy (no network, no devices, a kernel of Landlock ABI 6 or
 * later), made by sbexec's own filter.c from the build's programs, on
 * stdout. Part of the benchmark harness (bench/run), not of sbexec: the
 * least Landlock launcher loads it (ll-launch -s) so that its floor
 * pays for the same filter sbexec's command does.
 *
 *   filter-dump >FILE
 *
 * Linked with the build's sandbox/filter.o, seccomp-bpf.o, util.o and fmt.o. */
#include <stdio.h>

#include "sandbox/filter.h"

int main(void)
{
	size_t len;
	unsigned char *p = filter_make(FILTER_LANDLOCK, &len);

	return fwrite(p, 1, len, stdout) == len ? 0 : 1;
}
