/* tap.h: the TAP lines of the C unit drivers. ok() prints one test's
 * line and counts it; a driver ends with `return tap_done();`, which
 * prints the plan and fails when any test did. */
#ifndef SBEXEC_TEST_TAP_H
#define SBEXEC_TEST_TAP_H

#include <stdio.h>

static int failures;
static int testno;

static void ok(int cond, const char *name)
{
	testno++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", testno, name);
	if (!cond)
		failures++;
}

static inline int tap_done(void)
{
	printf("1..%d\n", testno);
	return failures != 0;
}

#endif
