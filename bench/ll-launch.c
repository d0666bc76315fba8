/* ll-launch: the least a Landlock launcher does, as the bench's floor
 * for sbexec's Landlock backend. Part of the benchmark harness (bench/run),
 * not of sbexec.
 *
 *   ll-launch ARGV...
 *
 * Fork; in the child a new session, a ruleset that handles every
 * filesystem right of ABI 1-3 the kernel knows (ABI 1 and 2 know fewer)
 * and grants read and execute beneath /,
 * PR_SET_NO_NEW_PRIVS, landlock_restrict_self, exec ARGV; the parent
 * waits and exits with the child's status. No policy, no audit, no
 * seccomp, no output copy, no guard process: sbexec landlock minus this
 * is what sbexec itself adds. */
#define _GNU_SOURCE
#include <fcntl.h>
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

static void restrict_self(void)
{
	long abi = syscall(SYS_ll_create_ruleset, NULL, 0, 1);
	uint64_t handled = abi == 1 ? (1ULL << 13) - 1 : abi == 2 ?
	    (1ULL << 14) - 1 : FS_ALL_ABI3;
	struct path_beneath pb = { FS_READ_EXEC, open("/", O_PATH) };
	int rs = (int)syscall(SYS_ll_create_ruleset, &handled, sizeof(handled),
	    0);

	if (rs < 0 || pb.fd < 0 ||
	    syscall(SYS_ll_add_rule, rs, 1, &pb, 0) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_ll_restrict_self, rs, 0) < 0) {
		perror("ll-launch: landlock");
		_exit(125);
	}
	close(rs);
	close(pb.fd);
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: ll-launch ARGV...\n");
		return 2;
	}
	if ((pid = fork()) == 0) {
		setsid();
		restrict_self();
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return 125;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
