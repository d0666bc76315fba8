/* probe_wx.c: what native code in the sandbox gets when it asks for new
 * executable memory or a new program (nocode.bats). One line each,
 * "NAME ok" or "NAME refused": a writable and executable mapping,
 * execute added to a writable one, a memfd, a System V segment attached
 * executable, READ_IMPLIES_EXEC, the kernel's MDWE flag, and an exec of
 * /bin/sh (which says "execve ok") with arbitrary values where sbexec's
 * launcher puts its secret. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

static void say(const char *name, int ok)
{
	printf("%s %s\n", name, ok ? "ok" : "refused");
}

static int shm_exec(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	void *p;

	if (id < 0)
		return 0;
	p = shmat(id, NULL, SHM_EXEC);
	shmctl(id, IPC_RMID, NULL);
	return p != (void *)-1;
}

int main(void)
{
	char *const argv[] = { "sh", "-c", "echo execve ok", NULL };
	char *const envp[] = { NULL };
	void *p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mmap-wx", p != MAP_FAILED);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mprotect-x", p != MAP_FAILED &&
	    mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0);
	say("memfd", syscall(SYS_memfd_create, "x", 0) >= 0);
	say("shmat-exec", shm_exec());
	say("personality", personality(READ_IMPLIES_EXEC) >= 0);
	say("mdwe-off", prctl(66 /* PR_GET_MDWE */, 0, 0, 0, 0) <= 0);
	fflush(stdout);
	syscall(SYS_execve, "/bin/sh", argv, envp, 0x1234L, 0x5678L, 0L);
	say("execve", 0);
	return 0;
}
