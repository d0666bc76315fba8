/* audit.c: one JSON object per line, each written with a single write
 * on an O_APPEND descriptor so that concurrent invocations never
 * interleave. A file sink is opened O_NOFOLLOW and created 0600; the
 * syslog sink speaks to /dev/log itself so that a failure is seen,
 * which syslog(3) would hide. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "json.h"
#include "util.h"

#define SYSLOG_PATH "/dev/log"
#define SYSLOG_PRI (10 << 3 | 6)	/* LOG_AUTHPRIV | LOG_INFO */

static struct {
	int fd;
	enum audit_sink sink;
	char id[33];
} a = { .fd = -1 };

static int open_file(const char *path)
{
	struct stat st;
	int fd;

	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW |
	    O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static int open_syslog(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	strcpy(sun.sun_path, SYSLOG_PATH);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void draw_id(void)
{
	unsigned char r[16];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		die(EXIT_SBEXEC, "getrandom");
	for (i = 0; i < sizeof(r); i++)
		snprintf(a.id + 2 * i, 3, "%02x", r[i]);
}

int audit_open(const struct policy *pol)
{
	const char *what = pol->audit_path;

	draw_id();
	a.sink = pol->audit;
	if (pol->audit == AUDIT_STDERR) {
		a.fd = STDERR_FILENO;
		return 0;
	}
	if (pol->audit == AUDIT_FILE) {
		a.fd = open_file(pol->audit_path);
	} else {
		what = SYSLOG_PATH;
		a.fd = open_syslog();
	}
	if (a.fd < 0) {
		fprintf(stderr, "sbexec: audit sink %s: %s; the command was "
		    "not run\n", what, strerror(errno));
		return -1;
	}
	return 0;
}

static void head(struct json *j, const char *type)
{
	struct timespec ts;
	struct tm tm;
	char buf[96];	/* room for any int the format could print */

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
	json_begin(j);
	json_str(j, "type", type);
	json_str(j, "ts", buf);
	json_str(j, "id", a.id);
}

static int emit(struct json *j)
{
	const char *buf;
	size_t len;
	char *line = NULL;
	ssize_t n;

	json_end(j);		/* may move j->buf */
	buf = j->buf;
	len = j->len;
	if (a.sink == AUDIT_SYSLOG) {
		line = xasprintf("<%d>sbexec[%ld]: %.*s", SYSLOG_PRI,
		    (long)getpid(), (int)(j->len - 1), j->buf);
		buf = line, len = strlen(line);
	}
	n = a.fd < 0 ? -1 : write(a.fd, buf, len);
	free(line);
	free(j->buf);
	if (n == (ssize_t)len)
		return 0;
	fprintf(stderr, "sbexec: audit record not written: %s; the command "
	    "was not run\n", n < 0 ? strerror(errno) : "short write");
	return -1;
}

/* The settings that weaken the boundary, each named in the record. */
static void loud(struct json *j, const struct policy *pol,
    const struct command *cmd, const char *fallback)
{
	const char *why[6];
	size_t n = 0;

	if (cmd->bypass)
		why[n++] = "bypass: the command runs without the sandbox";
	if (pol->inherit_host_env)
		why[n++] = "inheritHostEnv: the whole host environment is "
		    "passed";
	if (pol->weaker_nested && !cmd->bypass)
		why[n++] = "enableWeakerNestedSandbox: the host /proc is bound";
	if (pol->network_host && !cmd->bypass)
		why[n++] = "network: host";
	if (pol->allow_unix_sockets && !cmd->bypass)
		why[n++] = "allowUnixSockets: Unix sockets may be opened";
	if (fallback != NULL && !cmd->bypass)
		why[n++] = fallback;
	why[n] = NULL;
	json_bool(j, "loud", n > 0);
	json_strv(j, "reasons", (char *const *)why);
}

int audit_start(const struct policy *pol, const struct command *cmd,
    char *const *argv, const struct audit_run *r)
{
	static char *const none[] = { NULL };

	struct json j;

	head(&j, "start");
	json_int(&j, "pid", getpid());
	json_int(&j, "uid", getuid());
	json_str(&j, "cmd", cmd->name);
	json_str(&j, "path", cmd->path);
	json_strv(&j, "argv", argv);
	json_str(&j, "cwd", r->cwd);
	json_str(&j, "mode", cmd->bypass ? "bypass" : "sandbox");
	json_str(&j, "policy", pol->file);
	json_str(&j, "policySha256", pol->sha256);
	json_str(&j, "backend", r->backend);
	json_strv(&j, "masked", r->masked ? r->masked : none);
	json_strv(&j, "overrides", r->overrides ? r->overrides : none);
	loud(&j, pol, cmd, r->fallback);
	return emit(&j);
}

static int verdict(const char *type, const char *name, const char *reason)
{
	struct json j;

	head(&j, type);
	json_str(&j, "cmd", name);
	json_str(&j, "reason", reason);
	return emit(&j);
}

int audit_deny(const char *name, const char *reason)
{
	return verdict("deny", name, reason);
}

int audit_error(const char *name, const char *reason)
{
	return verdict("error", name, reason);
}

int audit_net(const struct audit_net *n)
{
	struct json j;

	head(&j, "net");
	json_str(&j, "method", n->method);
	json_str(&j, "host", n->host);
	if (n->port > 0)
		json_int(&j, "port", n->port);
	else
		json_null(&j, "port");
	json_str(&j, "target", n->target);
	json_str(&j, "address", n->address);
	json_bool(&j, "allowed", n->reason == NULL);
	json_str(&j, "reason", n->reason);
	json_str(&j, "error", n->error);
	json_int(&j, "bytesUp", n->bytes_up);
	json_int(&j, "bytesDown", n->bytes_down);
	return emit(&j);
}

int audit_finish(const struct audit_end *e)
{
	struct json j;

	head(&j, "end");
	json_int(&j, "exit", e->exit_status);
	if (e->signal)
		json_int(&j, "signal", e->signal);
	else
		json_null(&j, "signal");
	json_bool(&j, "timedOut", e->timed_out);
	json_str(&j, "outputLimit", e->output_limit);
	json_int(&j, "stdoutBytes", e->stdout_bytes);
	json_int(&j, "stderrBytes", e->stderr_bytes);
	json_int(&j, "durationMs", e->duration_ms);
	json_int(&j, "maxRssKb", e->max_rss_kb);
	json_int(&j, "cpuMs", e->cpu_ms);
	return emit(&j);
}
