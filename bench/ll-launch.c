/* ll-launch: the least a Landlock launcher does, as the bench's floor
 * for sbexec's Landlock backend. Part of the benchmark harness (bench/run),
 * not of sbexec.
 *
 *   ll-launch [-g] [-s FILTER] [-x HIDDEN]... ARGV...
 *
 * Fork; in the child a new session, a ruleset that handles every
 * filesystem right of ABI 1-3 the kernel knows (ABI 1 and 2 know fewer)
 * and grants read and execute beneath /,
 * PR_SET_NO_NEW_PRIVS, landlock_restrict_self, exec ARGV; the parent
 * waits and exits with the child's status. No policy, no audit, no
 * seccomp, no output copy, no guard process: sbexec landlock minus this
 * is what sbexec itself adds.
 *
 * With -x, beneath / but each HIDDEN (an absolute path without a
 * trailing slash): Landlock only grants, so each directory on the way
 * to a hidden entry gets listing only and each of its other entries a
 * rule of its own, as any Landlock sandbox that hides it must (links
 * get none). The least that a plan hiding the same entries costs.
 *
 * With -s, the child also loads FILTER, a seccomp program as bwrap's
 * --seccomp takes it (sbexec's own, from bench/filter-dump.c), after
 * the ruleset. With -g, a guard stands between the launcher and the child:
 * a subreaper that waits for the command, then for every orphan it
 * left, and exits with the command's status, as sbexec's guard does
 * where no PID namespace ends them. Both are what any Landlock sandbox
 * with sbexec's containment must do, whatever else it does. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYS_ll_create_ruleset 444
#define SYS_ll_add_rule 445
#define SYS_ll_restrict_self 446
#define FS_ALL_ABI3 ((1ULL << 15) - 1)
#define FS_READ_EXEC ((1ULL << 0) | (1ULL << 2) | (1ULL << 3))

struct path_beneath {
	uint64_t allowed;
	int32_t fd;
} __attribute__((packed));

#define FS_READ_DIR (1ULL << 3)
#define FS_FILE_RIGHTS ((1ULL << 0) | (1ULL << 2))

static char **hidden;
static int nhidden;

static int rule(int rs, const char *path, uint64_t allowed)
{
	struct path_beneath pb = { allowed, open(path, O_PATH | O_NOFOLLOW) };
	int rc;

	if (pb.fd < 0)
		return 0;
	rc = (int)syscall(SYS_ll_add_rule, rs, 1, &pb, 0);
	close(pb.fd);
	return rc;
}

/* 1 when PATH is hidden, 2 when a hidden entry lies below it. */
static int hole(const char *path)
{
	size_t n = strcmp(path, "/") ? strlen(path) : 0;
	int at = 0;

	for (int i = 0; i < nhidden; i++)
		if (strcmp(hidden[i], path) == 0)
			return 1;
		else if (strncmp(hidden[i], path, n) == 0 &&
		    hidden[i][n] == '/')
			at = 2;
	return at;
}

static int grant(int rs, const char *path, unsigned char type)
{
	char child[4096];
	struct dirent *e;
	DIR *d;
	int h = hole(path), rc = 0;

	if (h == 1 || type == DT_LNK)
		return 0;
	if (h == 0)
		return rule(rs, path, type == DT_DIR ? FS_READ_EXEC :
		    FS_FILE_RIGHTS);
	if (rule(rs, path, FS_READ_DIR) < 0 || (d = opendir(path)) == NULL)
		return -1;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(child, sizeof(child), "%s/%s",
		    strcmp(path, "/") ? path : "", e->d_name);
		rc = grant(rs, child, e->d_type);
	}
	closedir(d);
	return rc;
}

/* linux/filter.h and linux/seccomp.h, which musl's headers lack. */
struct sock_filter {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct sock_fprog {
	unsigned short len;
	struct sock_filter *filter;
};

#define SECCOMP_MODE_FILTER 2

static char *filter;
static size_t filter_len;

static void read_filter(const char *path)
{
	FILE *f = fopen(path, "rb");

	filter = malloc(65536);
	if (f == NULL || filter == NULL ||
	    (filter_len = fread(filter, 1, 65536, f)) == 0 ||
	    filter_len % sizeof(struct sock_filter) != 0) {
		fprintf(stderr, "ll-launch: %s: not a seccomp program\n", path);
		exit(2);
	}
	fclose(f);
}

static void load_filter(void)
{
	struct sock_fprog fp = {
		(unsigned short)(filter_len / sizeof(struct sock_filter)),
		(struct sock_filter *)(void *)filter
	};

	if (filter != NULL &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0) < 0) {
		perror("ll-launch: seccomp");
		_exit(125);
	}
}

static void restrict_self(void)
{
	long abi = syscall(SYS_ll_create_ruleset, NULL, 0, 1);
	uint64_t handled = abi == 1 ? (1ULL << 13) - 1 : abi == 2 ?
	    (1ULL << 14) - 1 : FS_ALL_ABI3;
	int rs = (int)syscall(SYS_ll_create_ruleset, &handled, sizeof(handled),
	    0);

	if (rs < 0 || grant(rs, "/", DT_DIR) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_ll_restrict_self, rs, 0) < 0) {
		perror("ll-launch: landlock");
		_exit(125);
	}
	close(rs);
}

static _Noreturn void command(char **argv)
{
	setsid();
	restrict_self();
	load_filter();
	execv(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

/* The guard: the command in a child, then every orphan reaped. */
static _Noreturn void guard_run(char **argv)
{
	pid_t cmd, pid;
	int st, code = 125;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 || (cmd = fork()) < 0)
		_exit(125);
	if (cmd == 0)
		command(argv);
	while ((pid = waitpid(-1, &st, 0)) > 0 || errno == EINTR)
		if (pid == cmd)
			code = WIFEXITED(st) ? WEXITSTATUS(st) :
			    128 + WTERMSIG(st);
	_exit(code);
}

int main(int argc, char **argv)
{
	int guard = 0;
	pid_t pid;
	int st;

	hidden = calloc((size_t)argc, sizeof(*hidden));
	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++)
		if (strcmp(argv[1], "-g") == 0)
			guard = 1;
		else if (argc > 2 && strcmp(argv[1], "-x") == 0)
			hidden[nhidden++] = argv[2], argc--, argv++;
		else if (argc > 2 && strcmp(argv[1], "-s") == 0)
			read_filter(argv[2]), argc--, argv++;
		else
			break;
	if (argc < 2 || argv[1][0] == '-' || hidden == NULL) {
		fprintf(stderr, "usage: ll-launch [-g] [-s FILTER] "
		    "[-x HIDDEN]... ARGV...\n");
		return 2;
	}
	if ((pid = fork()) == 0) {
		if (guard)
			guard_run(argv + 1);
		command(argv + 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 125;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
