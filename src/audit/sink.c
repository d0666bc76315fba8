/* sink.c: "auto" serves as the installed default on every host, without
 * a line on the command's stderr where the host keeps a log: journald's
 * and rsyslog's hosts take the records in their socket, where one user's
 * records sit with every other user's and no user can rewrite them.
 * Without a syslog socket (most containers), a file of the invoking
 * user's: root's under /var/log/sbexec, another user's in their own
 * state directory (XDG's ~/.local/state), so that several users sharing
 * a host never meet over one file (a file created 0600 by the first
 * would refuse the others). Where neither can be had (a read-only root
 * filesystem, a user with no home), stderr: the records are never
 * dropped. The choice is made from what holds at each run, and a sink
 * that then fails to take the start record stops the command, as any
 * sink does (audit.c). */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "audit/sink.h"
#include "util.h"

#define SYSLOG_PATH SINK_SYSLOG

static const char *why;

const char *sink_why(void)
{
	return why;
}

int sink_syslog(void)
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

const char *sink_name(const struct policy *pol)
{
	return pol->audit == AUDIT_FILE ? pol->audit_path :
	    pol->audit == AUDIT_SYSLOG ? "syslog" : "stderr";
}

static int syslog_listens(void)
{
	int fd = sink_syslog();

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* PATH, made MODE if missing; 0 when it is a directory (no link) of
 * the invoking user's that no one else may change. */
static int own_dir(const char *path, mode_t mode)
{
	struct stat st;

	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return -1;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == getuid() && (st.st_mode & 022) == 0 ? 0 : -1;
}

/* The directory "auto" keeps the invoking user's file in, or NULL. */
static char *user_dir(void)
{
	struct passwd *pw;
	char *local, *state, *dir = NULL;

	if (getuid() == 0)
		return own_dir(SINK_ROOT_DIR, 0750) == 0 ?
		    xstrdup(SINK_ROOT_DIR) : NULL;
	if ((pw = getpwuid(getuid())) == NULL || pw->pw_dir[0] != '/')
		return NULL;
	local = xasprintf("%s/.local", pw->pw_dir);
	state = xasprintf("%s/state", local);
	dir = xasprintf("%s/" SINK_USER_DIR, pw->pw_dir);
	mkdir(local, 0700);	/* or there: own_dir checks what is */
	mkdir(state, 0700);
	if (own_dir(dir, 0700) < 0) {
		free(dir);
		dir = NULL;
	}
	free(local);
	free(state);
	return dir;
}

/* The file in DIR the invoking user may write (or create), or NULL. */
static char *user_file(const char *dir)
{
	char *file = xasprintf("%s/" SINK_FILE, dir);

	if (access(file, W_OK) == 0 ||
	    (errno == ENOENT && access(dir, W_OK | X_OK) == 0))
		return file;
	free(file);
	return NULL;
}

static void set(struct policy *pol, enum audit_sink sink, const char *path)
{
	pol->audit = sink;
	free(pol->audit_path);
	pol->audit_path = path != NULL ? xstrdup(path) : NULL;
}

void sink_choose(struct policy *pol)
{
	enum audit_sink sink = AUDIT_STDERR;
	char *dir = NULL, *file = NULL;

	if (pol->audit != AUDIT_AUTO)
		return;
	if (syslog_listens()) {
		sink = AUDIT_SYSLOG;
		why = "auto: syslog (" SYSLOG_PATH " accepts records)";
	} else if ((dir = user_dir()) != NULL &&
	    (file = user_file(dir)) != NULL) {
		sink = AUDIT_FILE;
		why = xasprintf("auto: %s (no syslog socket at " SYSLOG_PATH
		    "; the invoking user's file)", file);
	} else {
		why = "auto: stderr (no syslog socket at " SYSLOG_PATH
		    ", and no file of the invoking user's could be had)";
	}
	set(pol, sink, file);
	for (size_t i = 0; i < pol->ncmds; i++)
		if (pol->cmds[i].own != NULL)
			set(pol->cmds[i].own, sink, file);
	free(dir);
	free(file);
}
