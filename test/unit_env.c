/* unit_env.c: TAP unit test of env.c. env_name_valid is exactly
 * ^[A-Za-z_][A-Za-z0-9_]*$; env_build copies the first host entry of each
 * allowed name, in the allow list's order, or every host entry when
 * inherit is set, and returns NULL past its bounds (4096 entries, 1 MiB
 * counting one NUL per entry); env_quiet adds JACK_NO_START_SERVER=1 and
 * ALSA_CONFIG_PATH=/dev/null where no non-empty value of the name is set,
 * and keeps one entry of each name.
 * Build: gcc -std=c11 -D_GNU_SOURCE -Wall ... -I. -o /tmp/unit_env
 *        test/unit_env.c env.c util.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/env.h"
#include "tap.h"

static void *must(void *p)
{
	if (p == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	return p;
}

static void free_env(char **envp)
{
	if (envp == NULL)
		return;
	for (char **e = envp; *e != NULL; e++)
		free(*e);
	free(envp);
}

static void print_env(const char *label, char *const *envp)
{
	printf("#   %s", label);
	if (envp == NULL) {
		printf(" NULL\n");
		return;
	}
	printf(" {");
	for (; *envp != NULL; envp++)
		printf(" \"%.60s\"%s", *envp, strlen(*envp) > 60 ? "..." : "");
	printf(" NULL }\n");
}

/* GOT must hold the strings of WANT, in order, as fresh copies. */
static void check_env(const char *name, char **got, char *const *want)
{
	size_t i = 0;
	int same = got != NULL;

	for (; same && want[i] != NULL; i++)
		same = got[i] != NULL && got[i] != want[i] &&
		    strcmp(got[i], want[i]) == 0;
	same = same && got[i] == NULL;
	ok(same, name);
	if (!same) {
		print_env("got: ", got);
		print_env("want:", want);
	}
	free_env(got);
}

/* "NAME" for a test label, with bytes outside ASCII printables as \xNN. */
static void label(char *out, size_t cap, const char *verb, const char *s)
{
	size_t n = (size_t)snprintf(out, cap, "env_name_valid %s \"", verb);

	for (; *s != '\0' && n + 6 < cap; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f)
			n += (size_t)snprintf(out + n, cap - n, "\\x%02x", c);
		else
			out[n++] = (char)c;
	}
	snprintf(out + n, cap - n, "\"");
}

static void test_names(void)
{
	static const char *const good[] = { "PATH", "_x", "a1", "_", "Z9_" };
	static const char *const bad[] = { "", "1A", "A-B", "A=B", "\xc3\xa9",
	    "A B", "PATH\n", "$A", "A\x80" };
	char name[64];

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		label(name, sizeof(name), "accepts", good[i]);
		ok(env_name_valid(good[i]) == 1, name);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		label(name, sizeof(name), "refuses", bad[i]);
		ok(env_name_valid(bad[i]) == 0, name);
	}
}

static void test_allow(void)
{
	char *const host[] = { "PATH=/bin", "SECRET=1", "LANG=C", "PATHX=no",
	    NULL };
	char *const allow[] = { "PATH", "LANG", "MISSING", NULL };
	char *const want[] = { "PATH=/bin", "LANG=C", NULL };
	char *const rev[] = { "LANG", "PATH", NULL };
	char *const want_rev[] = { "LANG=C", "PATH=/bin", NULL };
	char *const twice[] = { "A=1", "B=2", "A=3", NULL };
	char *const allow_a[] = { "A", NULL };
	char *const want_a[] = { "A=1", NULL };
	char *const prefix[] = { "PATHX=no", "PAT=no", "PATH", NULL };
	char *const allow_p[] = { "PATH", NULL };
	char *const empty_value[] = { "PATH=", NULL };
	char *const none[] = { NULL };

	check_env("allow PATH LANG MISSING: PATH=/bin LANG=C, nothing else",
	    env_build(host, allow, 0), want);
	check_env("the allow list's order, not the host's",
	    env_build(host, rev, 0), want_rev);
	check_env("the first host occurrence of a name wins",
	    env_build(twice, allow_a, 0), want_a);
	check_env("PATHX, PAT and a bare PATH without = are not PATH",
	    env_build(prefix, allow_p, 0), none);
	check_env("an empty value is kept (PATH=)",
	    env_build(empty_value, allow_p, 0), empty_value);
	check_env("allow {NULL} gives an empty env, not NULL",
	    env_build(host, none, 0), none);
	check_env("an empty host env gives an empty env, not NULL",
	    env_build(none, allow, 0), none);
}

/* A host env of N copies of "V=<fill>", each entry LEN bytes long. */
static char **make_host(size_t n, size_t len)
{
	char **host = must(calloc(n + 1, sizeof(*host)));

	for (size_t i = 0; i < n; i++) {
		host[i] = must(malloc(len + 1));
		memset(host[i], 'x', len);
		memcpy(host[i], "V=", 2);
		host[i][len] = '\0';
	}
	return host;
}

/* inherit with N entries of LEN bytes: a full copy when WANT_OK, else NULL. */
static void check_bound(const char *name, size_t n, size_t len, int want_ok)
{
	char **host = make_host(n, len);
	char **got = env_build(host, host, 1);

	if (want_ok) {
		check_env(name, got, host);
	} else {
		ok(got == NULL, name);
		if (got != NULL)
			printf("#   got:  an env\n#   want: NULL\n");
		free_env(got);
	}
	free_env(host);
}

static void test_inherit(void)
{
	char *const host[] = { "PATH=/bin", "SECRET=1", "LANG=C", "PATHX=no",
	    "NOEQUALS", "A=1", "A=2", NULL };
	char *const allow[] = { "LANG", NULL };
	char *const none[] = { NULL };

	check_env("inherit copies every host entry, whatever the allow list",
	    env_build(host, allow, 1), host);
	check_env("inherit of an empty host env gives an empty env",
	    env_build(none, none, 1), none);
	check_bound("inherit 4096 entries (the bound) succeeds", 4096, 8, 1);
	check_bound("inherit 4097 entries returns NULL", 4097, 8, 0);
	check_bound("inherit 5000 entries returns NULL", 5000, 8, 0);
	check_bound("inherit one entry of 2 MiB returns NULL", 1, 2u << 20, 0);
	check_bound("inherit exactly 1 MiB with NULs (4 x 256 KiB) succeeds",
	    4, (256u << 10) - 1, 1);
	/* 17 x (61680 + 1) = 1 MiB + 1 */
	check_bound("inherit 1 MiB + 1 byte returns NULL", 17, 61680, 0);
}

/* env_quiet of a copy of HOST (env_quiet consumes what env_build made). */
static char **quiet(char *const *host)
{
	char **copy = env_build(host, host, 1);

	return copy == NULL ? NULL : env_quiet(copy);
}

static void test_quiet(void)
{
	char *const path[] = { "PATH=/bin", NULL };
	char *const added[] = { "PATH=/bin", "JACK_NO_START_SERVER=1",
	    "ALSA_CONFIG_PATH=/dev/null", NULL };
	char *const own[] = { "ALSA_CONFIG_PATH=/etc/asound.conf",
	    "JACK_NO_START_SERVER=yes", NULL };
	char *const empty[] = { "ALSA_CONFIG_PATH=", "JACK_NO_START_SERVER=",
	    "PATH=/bin", NULL };
	char *const twice[] = { "ALSA_CONFIG_PATH", "ALSA_CONFIG_PATH=",
	    "ALSA_CONFIG_PATH=/a", "ALSA_CONFIG_PATH=/b", "ALSA_CONFIG_PATHX=c",
	    NULL };
	char *const want_twice[] = { "ALSA_CONFIG_PATH=/a",
	    "ALSA_CONFIG_PATHX=c", "JACK_NO_START_SERVER=1", NULL };
	char *const none[] = { NULL };
	char *const want_none[] = { "JACK_NO_START_SERVER=1",
	    "ALSA_CONFIG_PATH=/dev/null", NULL };

	check_env("env_quiet adds JACK_NO_START_SERVER=1 and "
	    "ALSA_CONFIG_PATH=/dev/null after the rest", quiet(path), added);
	check_env("env_quiet keeps a non-empty value of the policy's own",
	    quiet(own), own);
	check_env("env_quiet replaces an empty value (alsa-lib's default "
	    "configuration)", quiet(empty), added);
	check_env("env_quiet keeps the first non-empty entry of a name, "
	    "drops the others and bare names", quiet(twice), want_twice);
	check_env("env_quiet of an empty env gives the two",
	    quiet(none), want_none);
}

int main(void)
{
	printf("1..34\n");
	test_names();
	test_allow();
	test_inherit();
	test_quiet();
	return failures ? 1 : 0;
}
