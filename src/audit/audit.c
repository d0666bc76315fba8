/* audit.c: one JSON object per line, each written with a single write
 * on an O_APPEND descriptor so that concurrent invocations never
 * interleave. A file sink is opened O_NOFOLLOW and created 0600; the
 * syslog sink speaks to /dev/log itself so that a failure is seen,
 * which syslog(3) would hide.
 *
 * DESIGN 12: a record fits AUDIT_RECORD_MAX whatever argv holds (each
 * value has a share, argv the rest, cut explicitly, with its length and
 * digest); on the shared stream it begins on a line of its own; in a
 * file, every record but the end one is written only once room for it
 * and AUDIT_RESERVE bytes more is taken past the end, so that a disk
 * the command fills cannot lose the end record, and no record is left
 * as a partial line for the next one to join. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "audit/audit.h"
#include "audit/json.h"
#include "audit/outfd.h"
#include "audit/sink.h"
#include "sha256.h"
#include "tiny.h"
#include "util.h"

#define SYSLOG_PATH SINK_SYSLOG
#define SYSLOG_PRI (10 << 3 | 6)	/* LOG_AUTHPRIV | LOG_INFO */

/* Past the end of the file, kept for the records still to come: 16
 * records at the bound, or some 150 end records (about 400 bytes), so
 * that runs ending together each find room for theirs. */
#define AUDIT_RESERVE (64 * 1024)

/* Each value's share of a record, in bytes of JSON. With every share
 * full, argv still has some 1,300 bytes of the bound. */
#define SHARE_NAME 128		/* a command name, a key path */
#define SHARE_PATH 256		/* a path of the policy's or sbexec's */
#define SHARE_CWD 384		/* the caller's working directory */
#define SHARE_LIST 320		/* masked, overrides */
#define SHARE_REASON 640	/* a reason, or the list of them */
#define SHARE_TARGET 512	/* a proxy request's target */
#define SHARE_ARG 1024		/* one argv element */
#define ARGV_FRAME 32		/* ,"argv": ... ,"argvCut":false}\n */

enum record { BEFORE, NET, END };	/* what a failed record means */

static struct {
	int fd;
	enum audit_sink sink;
	char id[33];
	int readable;	/* the file could be opened for reading too */
	int no_reserve;	/* its filesystem cannot fallocate */
	int merged;	/* stdout is the file stderr is ("2>&1") */
	int line_start;	/* the last byte sent to stderr was a newline */
	int unknown;	/* the command writes to stderr itself */
	int end_lost;	/* the end record could not be written */
	int end_status;	/* the status it was to give */
} a = { .fd = -1, .line_start = 1 };

/* Read access lets a record see whether the file ends in a partial
 * line; a file the user may only append to is used without it. */
static int open_file(const char *path)
{
	int flags = O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK | O_NOCTTY;
	struct stat st;
	int fd;

	fd = open(path, O_RDWR | flags, 0600);
	a.readable = fd >= 0;
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_WRONLY | flags, 0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* 1 when descriptors X and Y are the same file. */
static int same_file(int x, int y)
{
	struct stat sx, sy;

	return fstat(x, &sx) == 0 && fstat(y, &sy) == 0 &&
	    sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
}

static void draw_id(void)
{
	unsigned char r[16];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		die(EXIT_SBEXEC, "getrandom");
	for (i = 0; i < sizeof(r); i++)
		fmt_snprintf(a.id + 2 * i, 3, "%02x", r[i]);
}

int audit_open(const struct policy *pol)
{
	const char *what = pol->audit_path;

	draw_id();
	if (pol->audit == AUDIT_AUTO) {		/* sink_choose first */
		warnx("audit sink auto: not decided; the command was not run");
		return -1;
	}
	a.sink = pol->audit;
	if (pol->audit == AUDIT_STDERR) {
		a.fd = STDERR_FILENO;
		a.merged = same_file(STDOUT_FILENO, STDERR_FILENO);
		return 0;
	}
	if (pol->audit == AUDIT_FILE) {
		a.fd = open_file(pol->audit_path);
	} else {
		what = SYSLOG_PATH;
		a.fd = sink_syslog();
	}
	if (a.fd < 0) {
		warnx("audit sink %s: %s; the command was not run", what,
		    strerror(errno));
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
	tiny_gmtime(ts.tv_sec, &tm);
	fmt_snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
	json_begin(j);
	json_str(j, "type", type);
	json_str(j, "ts", buf);
	json_str(j, "id", a.id);
}

void audit_wrote(int fd, const char *buf, size_t n)
{
	if (n > 0 && (fd == STDERR_FILENO ||
	    (fd == STDOUT_FILENO && a.merged)))
		a.line_start = buf[n - 1] == '\n';
}

int audit_end_lost(void)
{
	return a.end_lost;
}

/* write(2) until BUF is out: a short write is finished, not left as a
 * partial line. Returns the bytes written. */
static size_t write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}

/* The shared stream: a newline first unless the last byte sent there
 * was one, so that no line the command left open takes the record in. */
int audit_line_start(void)
{
	return a.line_start && !a.unknown;
}

static int (*diverted)(const char *, size_t);

void audit_divert(int (*put)(const char *, size_t))
{
	diverted = put;
}

/* While the loop runs, a record on stderr waits in say.c's queue: no
 * write of sbexec's may stop the loop (a caller not reading stderr). */
static int to_stream(const struct json *j)
{
	int fresh = a.line_start && !a.unknown;

	if (diverted != NULL)
		return diverted(j->buf, j->len);
	char *line = fresh ? NULL : xasprintf("\n%s", j->buf);
	const char *buf = fresh ? j->buf : line;
	/* Before the loop and after it: waits for room within the run's
	 * bound (outfd.c), then the record is lost (and said). */
	size_t len = j->len + !fresh, done = outfd_put(a.fd, buf, len);

	if (done > 0)
		a.line_start = buf[done - 1] == '\n';
	free(line);
	return done == len ? 0 : -1;
}

/* Room for LEN bytes and AUDIT_RESERVE more past END, taken now
 * (FALLOC_FL_KEEP_SIZE: the blocks are the file's, its size unchanged;
 * O_APPEND writes fill them): a disk filled since cannot refuse them. */
static int reserve_room(off_t end, size_t len)
{
	while (!a.no_reserve && fallocate(a.fd, FALLOC_FL_KEEP_SIZE, end,
	    (off_t)(len + AUDIT_RESERVE)) < 0) {
		if (errno == EOPNOTSUPP || errno == ENOSYS)
			a.no_reserve = 1;	/* said in sbexec.json(5) */
		else if (errno != EINTR)
			return -1;
	}
	return 0;
}

/* Did the record of LEN bytes that ends at the descriptor's offset
 * (where O_APPEND left it) land after a line another writer left cut (a
 * full disk, an older sbexec)? Looked at once the record is written:
 * the byte before it is final then. Before the write, the file's last
 * byte may be inside another writer's record still being copied (the
 * kernel grows the size a page at a time): a newline put in front on
 * that evidence left a blank line (make bench's 200 concurrent calls). */
static int glued(size_t len)
{
	off_t end = lseek(a.fd, 0, SEEK_CUR);
	char before;

	return a.readable && end > (off_t)len &&
	    pread(a.fd, &before, 1, end - (off_t)len - 1) == 1 &&
	    before != '\n';
}

/* The record, appended; after a cut line once more, on a line of its
 * own. Room is reserved for both copies before a record the end record
 * must follow. */
static int to_file(const struct json *j, int reserve)
{
	struct stat st;
	size_t done;
	int rc, err;

	if (reserve && (fstat(a.fd, &st) < 0 ||
	    reserve_room(st.st_size, 2 * j->len) < 0))
		return -1;
	done = write_all(a.fd, j->buf, j->len);
	rc = done == j->len ? 0 : -1;
	err = errno;
	if (done > 0 && done < j->len)
		write_all(a.fd, "\n", 1);	/* end the cut line */
	else if (rc == 0 && glued(j->len))
		rc = write_all(a.fd, j->buf, j->len) == j->len ? 0 : -1;
	errno = err;
	return rc;
}

static int to_syslog(const struct json *j)
{
	char *line = xasprintf("<%d>sbexec[%ld]: %.*s", SYSLOG_PRI,
	    (long)getpid(), (int)(j->len - 1), j->buf);
	size_t len = strlen(line);
	/* A full syslog socket must not stop the loop: the record is lost
	 * then, which fails the run as any unwritable record does. */
	ssize_t n = send(a.fd, line, len, MSG_DONTWAIT);

	free(line);
	if (n >= 0 && (size_t)n != len)
		errno = EMSGSIZE;
	return n >= 0 && (size_t)n == len ? 0 : -1;
}

static void complain(enum record kind)
{
	const char *why = strerror(errno);

	if (kind == END) {
		a.end_lost = 1;
		warnx("the end record could not be written to the audit: %s; "
		    "exit status 125, not %d", why, a.end_status);
	} else if (kind == NET) {
		warnx("audit record not written: %s", why);
	} else {
		warnx("audit record not written: %s; the command was not run",
		    why);
	}
}

static int emit(struct json *j, enum record kind)
{
	int rc;

	json_end(j);		/* may move j->buf */
	if (a.fd < 0 || j->len > AUDIT_RECORD_MAX) {
		errno = a.fd < 0 ? EBADF : EMSGSIZE;	/* never cut */
		rc = -1;
	} else if (a.sink == AUDIT_SYSLOG) {
		rc = to_syslog(j);
	} else if (a.sink == AUDIT_STDERR) {
		rc = to_stream(j);
	} else {
		rc = to_file(j, kind != END);
	}
	free(j->buf);
	if (rc < 0)
		complain(kind);
	return rc;
}

/* The settings that weaken the boundary, each named in the record. */
static void loud(struct json *j, const struct policy *pol,
    const struct command *cmd, const struct audit_run *r)
{
	const char *why[11], *fallback = r->fallback;
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
	if (pol->devices.n > 0 && !cmd->bypass)
		why[n++] = "devices: host device nodes are open to the "
		    "command, each a kernel driver's attack surface";
	if (pol->programs.n > 0 && !cmd->bypass)
		why[n++] = "programs: the command may start other programs, "
		    "and the dynamic loader";
	if (pol->allow_wx && !cmd->bypass)
		why[n++] = "allowWriteExecute: the command may make memory "
		    "writable and executable";
	if (fallback != NULL && !cmd->bypass)
		why[n++] = fallback;
	if (r->no_cgroup != NULL)
		why[n++] = r->no_cgroup;
	why[n] = NULL;
	json_bool(j, "loud", n > 0);
	json_strv_max(j, "reasons", (char *const *)why, SHARE_REASON,
	    SHARE_REASON);
}

/* The SHA-256 of argv as /proc/PID/cmdline holds it (each element
 * followed by its NUL), the count, and the bytes without the NULs: what
 * a record that cuts argv still says of the whole. */
static void argv_digest(char *const *argv, char hex[65], size_t *count,
    size_t *bytes)
{
	size_t total = 0, i, n;
	char *all;

	for (i = 0; argv[i] != NULL; i++)
		total += strlen(argv[i]) + 1;
	all = xmalloc(total + 1);
	for (i = 0, total = 0; argv[i] != NULL; i++, total += n) {
		n = strlen(argv[i]) + 1;
		memcpy(all + total, argv[i], n);
	}
	sha256_hex(all, total, hex);
	free(all);
	*count = i;
	*bytes = total - i;
}

/* argv comes last and takes the room the other values leave it. */
int audit_start(const struct policy *pol, const struct command *cmd,
    char *const *argv, const struct audit_run *r)
{
	static char *const none[] = { NULL };
	struct json j;
	char sha[65];
	size_t count, bytes;
	int cut, rc;

	argv_digest(argv, sha, &count, &bytes);
	head(&j, "start");
	json_int(&j, "pid", getpid());
	json_int(&j, "uid", getuid());
	json_str_max(&j, "cmd", cmd->name, SHARE_NAME);
	json_str_max(&j, "path", cmd->path, SHARE_PATH);
	json_str_max(&j, "cwd", r->cwd, SHARE_CWD);
	json_str(&j, "mode", cmd->bypass ? "bypass" : "sandbox");
	json_str_max(&j, "policy", pol->file, SHARE_PATH);
	json_str(&j, "policySha256", pol->sha256);
	json_str(&j, "backend", r->backend);
	if (sink_why() != NULL)		/* "auto": what it chose */
		json_str_max(&j, "auditSink", sink_name(pol), SHARE_PATH);
	if (r->landlock_abi > 0) {
		json_int(&j, "landlockAbi", r->landlock_abi);
		if (r->landlock_cost != NULL)
			json_str(&j, "landlockCost", r->landlock_cost);
		else
			json_null(&j, "landlockCost");
		json_int(&j, "landlockRules", r->landlock_rules);
		json_strv_max(&j, "landlockNarrowed", r->narrowed ?
		    r->narrowed : none, SHARE_LIST, SHARE_PATH);
	}
	json_strv_max(&j, "masked", r->masked ? r->masked : none, SHARE_LIST,
	    SHARE_PATH);
	json_strv_max(&j, "overrides", r->overrides ? r->overrides : none,
	    SHARE_LIST, SHARE_NAME);
	json_strv_max(&j, "programs", pol->programs.n ? pol->programs.v : none,
	    SHARE_LIST, SHARE_PATH);
	json_str_max(&j, "cgroup", r->cgroup, SHARE_PATH);
	loud(&j, pol, cmd, r);
	json_int(&j, "argvCount", (long long)count);
	json_int(&j, "argvBytes", (long long)bytes);
	json_str(&j, "argvSha256", sha);
	cut = json_strv_max(&j, "argv", argv, AUDIT_RECORD_MAX - ARGV_FRAME -
	    j.len, SHARE_ARG);
	json_bool(&j, "argvCut", cut);
	rc = emit(&j, BEFORE);
	/* Mirrors spawn.c's output_pipes: without a cap, or on a terminal,
	 * the command writes to stderr itself and its last byte is not
	 * known here; every later record begins with a newline. */
	if (a.sink == AUDIT_STDERR)
		a.unknown = pol->limits.max_output_bytes == 0 ||
		    isatty(STDERR_FILENO);
	return rc;
}

static int verdict(const char *type, const char *name, const char *reason)
{
	struct json j;

	head(&j, type);
	json_str_max(&j, "cmd", name, SHARE_NAME);
	json_str_max(&j, "reason", reason, SHARE_REASON);
	return emit(&j, BEFORE);
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
	json_str_max(&j, "method", n->method, SHARE_NAME);
	json_str_max(&j, "host", n->host, SHARE_PATH);
	if (n->port > 0)
		json_int(&j, "port", n->port);
	else
		json_null(&j, "port");
	json_str_max(&j, "target", n->target, SHARE_TARGET);
	json_str_max(&j, "address", n->address, SHARE_NAME);
	json_str_max(&j, "sni", n->sni, SHARE_PATH);
	json_bool(&j, "allowed", n->reason == NULL);
	json_str_max(&j, "reason", n->reason, SHARE_REASON);
	json_str_max(&j, "error", n->error, SHARE_REASON);
	json_int(&j, "connections", n->connections > 0 ? n->connections : 1);
	json_int(&j, "bytesUp", n->bytes_up);
	json_int(&j, "bytesDown", n->bytes_down);
	return emit(&j, NET);
}

static void int_or_null(struct json *j, const char *k, long long v)
{
	if (v >= 0)
		json_int(j, k, v);
	else
		json_null(j, k);
}

/* The run's cgroup: null everywhere when it had none. */
static void run_fields(struct json *j, const struct audit_end *e)
{
	int_or_null(j, "runPeakBytes", e->cgroup ? e->run_peak_bytes : -1);
	int_or_null(j, "runCpuMs", e->cgroup ? e->run_cpu_ms : -1);
	int_or_null(j, "runTasksPeak", e->cgroup ? e->run_tasks_peak : -1);
	int_or_null(j, "tasksRefused", e->cgroup ? e->tasks_refused : -1);
	if (e->cgroup) {
		json_bool(j, "oom", e->oom);
		json_bool(j, "cpuExceeded", e->cpu_exceeded);
	} else {
		json_null(j, "oom");
		json_null(j, "cpuExceeded");
	}
}

int audit_finish(const struct audit_end *e)
{
	struct json j;

	a.end_status = e->exit_status;
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
	json_int(&j, "netRefused", e->net_refused);
	json_int(&j, "linesDropped", e->lines_dropped);
	run_fields(&j, e);
	json_str_max(&j, "reason", e->reason, SHARE_REASON);
	return emit(&j, END);
}
