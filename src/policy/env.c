/* env.c: the child's environment. Nothing is inherited but what the
 * policy names: a command whose argv is hostile can print its
 * environment, so every inherited secret is readable (seeds/srt). The
 * result is passed to execve; sbexec never edits its own environ. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/env.h"
#include "util.h"

/* The kernel caps argv plus envp; past these the exec would fail anyway,
 * so refuse early and say why. */
#define ENV_MAX_ENTRIES 4096
#define ENV_MAX_BYTES (1 << 20)

int env_name_valid(const char *name)
{
	const char *p = name;

	if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= 'a' && *p <= 'z')))
		return 0;
	for (p++; *p != '\0'; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

static const char *lookup(char *const *host, const char *name)
{
	size_t n = strlen(name);

	for (; *host != NULL; host++)
		if (strncmp(*host, name, n) == 0 && (*host)[n] == '=')
			return *host;
	return NULL;
}

static int add(struct strv *sv, size_t *bytes, const char *entry)
{
	*bytes += strlen(entry) + 1;
	if (sv->n >= ENV_MAX_ENTRIES || *bytes > ENV_MAX_BYTES)
		return -1;
	strv_push(sv, entry);
	return 0;
}

char **env_build(char *const *host, char *const *allow, int inherit)
{
	struct strv sv = { 0 };
	size_t bytes = 0;
	const char *entry;
	int rc = 0;

	sv.v = xreallocarray(NULL, 1, sizeof(*sv.v));	/* empty is valid */
	sv.v[0] = NULL;
	sv.cap = 1;
	if (inherit) {
		for (; rc == 0 && *host != NULL; host++)
			rc = add(&sv, &bytes, *host);
	} else {
		for (; rc == 0 && *allow != NULL; allow++)
			if ((entry = lookup(host, *allow)) != NULL)
				rc = add(&sv, &bytes, entry);
	}
	if (rc < 0) {
		for (size_t i = 0; i < sv.n; i++)
			free(sv.v[i]);
		free(sv.v);
		return NULL;
	}
	return sv.v;
}

/* Any spelling of a proxy variable: only the proxy sbexec names may be
 * seen, and no_proxy must not send a host around it. */
static int proxy_name(const char *entry)
{
	static const char *const names[] = { "http_proxy", "https_proxy",
	    "all_proxy", "no_proxy", "ftp_proxy" };
	size_t n = strcspn(entry, "=");

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strlen(names[i]) == n && strncasecmp(entry, names[i], n) == 0)
			return 1;
	return 0;
}

char **env_proxy(char **envp, const char *url)
{
	size_t n = 0, k = 0;
	char **out;

	while (envp[n] != NULL)
		n++;
	out = xreallocarray(NULL, n + 2, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (proxy_name(envp[i]))
			free(envp[i]);
		else
			out[k++] = envp[i];
	}
	out[k++] = xasprintf("http_proxy=%s", url);
	out[k] = NULL;
	free(envp);
	return out;
}

/* DESIGN 13: variables that keep libraries ffmpeg links from starting
 * programs that argv names. A value of the policy's own (admitted and
 * non-empty) stays: the policy chose it. An empty one does not, as
 * alsa-lib reads ALSA_CONFIG_PATH= as its default configuration. */
static const char *const quiet[][2] = {
	/* libjack execs the server command of $HOME/.jackdrc, which
	 * "(null)/.jackdrc" in the cwd is when HOME is unset. */
	{ "JACK_NO_START_SERVER", "1" },
	/* No PCM is defined, the file plugin's "file:'|cmd'" (a pipe to
	 * /bin/sh -c cmd) among them; /dev/null reads empty for alsa-lib
	 * and no run can write it. */
	{ "ALSA_CONFIG_PATH", "/dev/null" },
};

#define NQUIET (sizeof(quiet) / sizeof(*quiet))

/* The index in quiet of ENTRY's name, or -1. */
static int quiet_index(const char *entry)
{
	size_t n = strcspn(entry, "=");

	for (size_t i = 0; i < NQUIET; i++)
		if (strlen(quiet[i][0]) == n && strncmp(entry, quiet[i][0],
		    n) == 0)
			return (int)i;
	return -1;
}

char **env_quiet(char **envp)
{
	int have[NQUIET] = { 0 }, i;
	size_t n = 0, k = 0;
	const char *v;
	char **out;

	while (envp[n] != NULL)
		n++;
	out = xreallocarray(NULL, n + NQUIET + 1, sizeof(*out));
	for (size_t j = 0; j < n; j++) {
		if ((i = quiet_index(envp[j])) < 0) {
			out[k++] = envp[j];
			continue;
		}
		v = envp[j] + strlen(quiet[i][0]);	/* "=value", or "" */
		if (*v == '=' && v[1] != '\0' && !have[i]) {
			have[i] = 1;	/* one entry of each name */
			out[k++] = envp[j];
		} else {
			free(envp[j]);
		}
	}
	for (size_t q = 0; q < NQUIET; q++)
		if (!have[q])
			out[k++] = xasprintf("%s=%s", quiet[q][0], quiet[q][1]);
	out[k] = NULL;
	free(envp);
	return out;
}
