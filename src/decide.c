/* decide.c: the decision (deny, sandbox or bypass) as a pure function of
 * the parsed policy and the command name, never of argv: the caller may
 * be hostile in its arguments but not in its policy (DESIGN 4). Also the
 * names that may never be bypassed and the warnings of --check. */
#include <ctype.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "policy/netpolicy.h"
#include "policy/policy.h"
#include "util.h"

enum decision policy_decide(const struct policy *pol, const char *name,
    const struct command **cmd)
{
	for (size_t i = 0; i < pol->ncmds; i++) {
		if (strcmp(pol->cmds[i].name, name) != 0)
			continue;
		*cmd = &pol->cmds[i];
		return pol->cmds[i].bypass ? DECIDE_BYPASS : DECIDE_SANDBOX;
	}
	*cmd = NULL;
	return DECIDE_DENY;
}

/* Anything that turns argv into code: shells, launchers, interpreters. */
static const char *const interpreters[] = {
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh",
	"tcsh", "yash", "posh", "nu", "busybox", "toybox",
	"env", "xargs", "find", "timeout", "nice", "nohup", "stdbuf",
	"setsid", "flock", "sudo", "su", "doas", "runuser", "chroot",
	"unshare", "nsenter", "strace", "gdb", "ssh", "make", "parallel",
	"watch", "script", "expect",
	"awk", "gawk", "mawk", "nawk", "sed", "perl", "python", "pypy",
	"node", "nodejs", "deno", "bun", "tsx", "ruby", "php", "lua",
	"luajit", "tclsh", "wish", "R", "Rscript", "julia", "java", "jshell",
	"vim", "vi", "ex", "nvim", "emacs",
};

static int listed(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(interpreters) / sizeof(*interpreters);
	    i++)
		if (strlen(interpreters[i]) == len &&
		    strncasecmp(interpreters[i], name, len) == 0)
			return 1;
	return 0;
}

int is_interpreter(const char *name)
{
	size_t len = strlen(name);

	if (listed(name, len))
		return 1;
	/* A version suffix: python3.11, lua5.4, perl5.36, bash-5. */
	while (len > 1 && (isdigit((unsigned char)name[len - 1]) ||
	    strchr(".-_", name[len - 1]) != NULL))
		len--;
	return listed(name, len);
}

struct env_warning {
	const char *name, *why;
};

static const struct env_warning env_warnings[] = {
	{ "FFREPORT", "makes ffmpeg write a report file wherever the "
	    "variable says; remove it from envAllowList" },
	{ "http_proxy", "sends ffmpeg's HTTP requests through a proxy the "
	    "caller chooses; remove it from envAllowList" },
	{ "FFMPEG_DATADIR", "makes ffmpeg load presets from a directory the "
	    "caller chooses; remove it from envAllowList" },
	{ "HOME", "makes ffmpeg read presets from $HOME/.ffmpeg; remove it "
	    "from envAllowList" },
	{ "ALSA_CONFIG_PATH", "lets the caller choose alsa-lib's "
	    "configuration, in which -f alsa \"file:'|cmd'\" runs a shell "
	    "(sbexec passes an empty one); remove it from envAllowList" },
};

static int loads_code(const struct command *cmd)
{
	static const char *const media[] = { "ffmpeg", "ffprobe", "ffplay" };
	const char *base = base_name(cmd->path);

	for (size_t i = 0; i < 3; i++)
		if (strcmp(cmd->name, media[i]) == 0 ||
		    strcmp(base, media[i]) == 0)
			return 1;
	return 0;
}

static void command_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	char *line;

	for (size_t i = 0; i < pol->ncmds; i++) {
		if (!pol->cmds[i].bypass || !loads_code(&pol->cmds[i]))
			continue;
		line = xasprintf("bypass: %s loads shared objects through "
		    "filters (ladspa, frei0r): bypassing it trusts argv with "
		    "code execution; remove it from bypass",
		    pol->cmds[i].name);
		warn(line, arg);
		free(line);
	}
}

/* allowAddresses that re-open what the proxy exists to close: the cloud
 * metadata address, or a prefix as wide as the Internet. */
static void net_warnings(const struct netpolicy *np,
    void (*warn)(const char *, void *), void *arg)
{
	struct sockaddr_in meta = { .sin_family = AF_INET,
	    .sin_addr.s_addr = htonl(0xa9fea9feU) };	/* 169.254.169.254 */
	struct netpolicy only = { .addrs = np->addrs, .naddrs = np->naddrs };
	char *line, *s;

	if (netpolicy_addr(&only, (struct sockaddr *)&meta) == NULL)
		warn("network.allowAddresses: covers 169.254.169.254, the "
		    "cloud metadata service (credentials)", arg);
	for (size_t i = 0; i < np->naddrs; i++) {
		if (np->addrs[i].bits >= 8)
			continue;
		s = cidr_str(&np->addrs[i]);
		line = xasprintf("network.allowAddresses: %s re-allows every "
		    "private and loopback address in it; list the origins' "
		    "own prefixes", s);
		warn(line, arg);
		free(line);
		free(s);
	}
}

void policy_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	char *line;

	command_warnings(pol, warn, arg);
	for (size_t i = 0; i < pol->nenv_allow; i++)
		for (size_t j = 0; j < sizeof(env_warnings) /
		    sizeof(*env_warnings); j++) {
			if (strcmp(pol->env_allow[i], env_warnings[j].name))
				continue;
			line = xasprintf("envAllowList: %s %s",
			    env_warnings[j].name, env_warnings[j].why);
			warn(line, arg);
			free(line);
		}
	if (pol->inherit_host_env)
		warn("inheritHostEnv: every variable of the caller, secrets "
		    "included, is readable by the command; name what it "
		    "needs in envAllowList instead", arg);
	if (pol->network_host)
		warn("network: \"host\": the command reaches the network and "
		    "local services; use \"none\" unless it must", arg);
	if (pol->net != NULL)
		net_warnings(pol->net, warn, arg);
	if (pol->weaker_nested)
		warn("enableWeakerNestedSandbox: the host's /proc is visible "
		    "inside; use it only inside a container that isolates", arg);
	if (pol->allow_unix_sockets)
		warn("allowUnixSockets: the command can connect to local "
		    "services such as /run/docker.sock", arg);
}
