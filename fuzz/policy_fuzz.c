/* policy_fuzz: libFuzzer target for the policy loader. Any bytes in:
 * it must accept or reject without a crash, a leak or undefined
 * behaviour, and an accepted policy must satisfy the schema's rules.
 * Every rejection prints a line: run it with -close_fd_mask=2. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accepted(const struct policy *pol)
{
	assert(pol->ncmds > 0);
	assert(pol->bin_shell == NULL || pol->bin_shell[0] == '/');
	assert(pol->bwrap[0] == '/');
	for (size_t i = 0; i < pol->ncmds; i++) {
		assert(pol->cmds[i].path[0] == '/');
		assert(strcmp(pol->cmds[i].name, "sbexec") != 0);
		assert(!pol->cmds[i].bypass ||
		    !is_interpreter(pol->cmds[i].name));
	}
	assert(pol->limits.timeout_ms >= 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy pol;
	char *buf = malloc(size + 1);

	memcpy(buf, data, size);
	buf[size] = '\0';
	if (policy_parse("fuzz.json", buf, size, &pol) == 0)
		check_accepted(&pol);
	policy_free(&pol);
	free(buf);
	return 0;
}
