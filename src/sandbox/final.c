/* final.c: the last layer before the command starts (issue 30, item 2).
 * A command started by sbexec may not start another (a shell from
 * alsa-lib's pipe plugin, a server from libjack, a python3 that writes
 * its own /proc/self/mem) and may not make memory writable and
 * executable, so that nothing argv, media or stdin name runs as code.
 *
 * One exec, told without state: the filter allows execve only with a
 * 128-bit secret in two arguments the kernel ignores (the 4th and 5th),
 * drawn here and given to that one execve. The new image gets fresh
 * memory and cleared registers, so nothing after it can know the
 * secret; every later execve, and every execveat, is EPERM. A command
 * with "programs" may exec, but a Landlock layer lets only the command,
 * those programs and their ELF or #! interpreters execute.
 *
 * W^X as systemd's MemoryDenyWriteExecute=: mmap asking for write and
 * execute at once, mprotect and pkey_mprotect adding execute, shmat
 * with SHM_EXEC, personality with READ_IMPLIES_EXEC, and memfd_create
 * (write a memfd, map it executable) are EPERM; PR_SET_MDWE, where the
 * kernel has it (6.3), says the same from the kernel's side. A command
 * with "allowWriteExecute" (swscale's fast_bilinear makes code at run
 * time) gets neither.
 *
 * The filter is built here, at run time, since the secret is in it:
 * a few dozen instructions after the build's filter, which stays. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "policy/policy.h"
#include "sandbox/final.h"
#include "sandbox/mapwatch.h"

/* The kernel's constants (linux/filter.h, seccomp.h, audit.h), which
 * musl's headers do not carry. */
#define LD_ABS 0x20		/* BPF_LD | BPF_W | BPF_ABS */
#define JEQ 0x15		/* BPF_JMP | BPF_JEQ | BPF_K */
#define JGE 0x35		/* BPF_JMP | BPF_JGE | BPF_K */
#define JSET 0x45		/* BPF_JMP | BPF_JSET | BPF_K */
#define AND 0x54		/* BPF_ALU | BPF_AND | BPF_K */
#define RET 0x06		/* BPF_RET | BPF_K */
#define RET_KILL 0x80000000U	/* SECCOMP_RET_KILL_PROCESS */
#define RET_EPERM (0x00050000U | (uint32_t)EPERM)
#define RET_ALLOW 0x7fff0000U
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_ARG(i, hi) (uint32_t)(16 + 8 * (i) + 4 * (hi))	/* little-endian */
#if defined(__x86_64__)
#define ARCH 0xc000003eU	/* AUDIT_ARCH_X86_64 */
#define X32_BIT 0x40000000U
#elif defined(__aarch64__)
#define ARCH 0xc00000b7U	/* AUDIT_ARCH_AARCH64 */
#else
#error "final.c: no AUDIT_ARCH for this architecture"
#endif
#define PR_SET_MDWE_ 65
#define MDWE_REFUSE_EXEC_GAIN 1
#define READ_IMPLIES_EXEC_ 0x0400000U
#define SHM_EXEC_ 0100000U
#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif

/* Landlock (linux/landlock.h): a layer of its own that handles only
 * execution. */
#define SYS_ll_create_ruleset 444
#define SYS_ll_add_rule 445
#define SYS_ll_restrict_self 446
#define LL_RULE_PATH_BENEATH 1
#define FS_EXECUTE 1ULL
#define PR_SET_NO_NEW_PRIVS_ 38
#define PR_SET_SECCOMP_ 22
#define SECCOMP_MODE_FILTER_ 2

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct prog {
	struct insn v[64];
	unsigned short n;
};

struct fprog {
	unsigned short len;
	const struct insn *filter;
};

struct beneath {
	uint64_t allowed;
	int32_t fd;
} __attribute__((packed));

static void put(struct prog *p, uint16_t code, uint32_t k, int jt, int jf)
{
	p->v[p->n++] = (struct insn){ code, (uint8_t)jt, (uint8_t)jf, k };
}

/* Call NR: the instructions of BODY, which end in returns; any other
 * call skips them. */
static void rule(struct prog *p, long nr, const struct prog *body)
{
	put(p, JEQ, (uint32_t)nr, 0, body->n);
	memcpy(p->v + p->n, body->v, body->n * sizeof(*body->v));
	p->n = (unsigned short)(p->n + body->n);
}

static void rule_deny(struct prog *p, long nr)
{
	struct prog b = { .n = 0 };

	put(&b, RET, RET_EPERM, 0, 0);
	rule(p, nr, &b);
}

/* EPERM when argument ARG has any bit of MASK (every bit with ALL). */
static void rule_bits(struct prog *p, long nr, int arg, uint32_t mask,
    int all)
{
	struct prog b = { .n = 0 };

	put(&b, LD_ABS, OFF_ARG(arg, 0), 0, 0);
	if (all) {
		put(&b, AND, mask, 0, 0);
		put(&b, JEQ, mask, 0, 1);
	} else {
		put(&b, JSET, mask, 0, 1);
	}
	put(&b, RET, RET_EPERM, 0, 0);
	put(&b, RET, RET_ALLOW, 0, 0);
	rule(p, nr, &b);
}

/* execve with S in arguments 3 and 4, all 128 bits, or EPERM. */
static void rule_gate(struct prog *p, const uint32_t s[4])
{
	struct prog b = { .n = 0 };

	for (int i = 0; i < 4; i++) {
		put(&b, LD_ABS, OFF_ARG(3 + i / 2, i % 2), 0, 0);
		put(&b, JEQ, s[i], 0, 7 - 2 * i);
	}
	put(&b, RET, RET_ALLOW, 0, 0);
	put(&b, RET, RET_EPERM, 0, 0);
	rule(p, SYS_execve, &b);
}

/* personality(0xffffffff) asks, and changes nothing. */
static void rule_personality(struct prog *p)
{
	struct prog b = { .n = 0 };

	put(&b, LD_ABS, OFF_ARG(0, 0), 0, 0);
	put(&b, JEQ, 0xffffffffU, 2, 0);
	put(&b, JSET, READ_IMPLIES_EXEC_, 0, 1);
	put(&b, RET, RET_EPERM, 0, 0);
	put(&b, RET, RET_ALLOW, 0, 0);
	rule(p, SYS_personality, &b);
}

static void filter_build(struct prog *p, const struct final *f,
    const uint32_t s[4])
{
	put(p, LD_ABS, OFF_ARCH, 0, 0);
	put(p, JEQ, ARCH, 1, 0);
	put(p, RET, RET_KILL, 0, 0);
	put(p, LD_ABS, OFF_NR, 0, 0);
#ifdef X32_BIT
	put(p, JGE, X32_BIT, 0, 1);
	put(p, RET, RET_KILL, 0, 0);
#endif
	if (f->programs.n == 0) {
		rule_gate(p, s);
		rule_deny(p, SYS_execveat);
	}
	if (!f->wx) {
		rule_bits(p, SYS_mmap, 2, PROT_WRITE | PROT_EXEC, 1);
		rule_bits(p, SYS_mprotect, 2, PROT_EXEC, 0);
		rule_bits(p, SYS_pkey_mprotect, 2, PROT_EXEC, 0);
		rule_bits(p, SYS_shmat, 2, SHM_EXEC_, 0);
		rule_personality(p);
		rule_deny(p, SYS_memfd_create);
		rule_deny(p, SYS_memfd_secret);
	}
	put(p, RET, RET_ALLOW, 0, 0);
}

/* The interpreter FILE names: PT_INTERP of an ELF file, or the path
 * after "#!", into BUF; 0, or -1 when it has none (or is not read). */
static int interpreter(const char *file, char buf[256])
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	ssize_t n;
	int fd, rc = -1;

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = pread(fd, buf, 255, 0);
	buf[n > 0 ? n : 0] = '\0';
	if (n > 2 && buf[0] == '#' && buf[1] == '!') {
		size_t at = 2 + strspn(buf + 2, " \t");

		memmove(buf, buf + at, strcspn(buf + at, " \t\n") + 1);
		buf[strcspn(buf, " \t\n")] = '\0';
		rc = buf[0] == '/' ? 0 : -1;
	} else if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64) {
		for (unsigned i = 0; rc < 0 && i < eh.e_phnum && i < 64; i++)
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff +
			    i * (Elf64_Off)eh.e_phentsize)) == sizeof(ph) &&
			    ph.p_type == PT_INTERP && ph.p_filesz < 256 &&
			    pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) ==
			    (ssize_t)ph.p_filesz) {
				buf[ph.p_filesz] = '\0';
				rc = 0;
			}
	}
	close(fd);
	return rc;
}

/* PATH, and its interpreter when it is a file that names one. A
 * program the sandbox does not show (privateTmp, denyRead) is left out:
 * nothing of it can execute. */
static int allow_exec(int rs, const char *path)
{
	struct beneath b = { FS_EXECUTE, -1 };
	char interp[256];
	struct stat st;
	int rc;

	if ((b.fd = open(path, O_PATH | O_CLOEXEC)) < 0)
		return errno == ENOENT || errno == EACCES ? 0 : -1;
	rc = (int)syscall(SYS_ll_add_rule, rs, LL_RULE_PATH_BENEATH, &b, 0);
	if (rc == 0 && fstat(b.fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    interpreter(path, interp) == 0) {
		close(b.fd);
		if ((b.fd = open(interp, O_PATH | O_CLOEXEC)) < 0)
			return -1;
		rc = (int)syscall(SYS_ll_add_rule, rs, LL_RULE_PATH_BENEATH,
		    &b, 0);
	}
	close(b.fd);
	return rc;
}

/* A layer of Landlock of its own, over whatever is there already: only
 * the command, its programs and their interpreters execute. */
static int exec_layer(const struct final *f, const char *command,
    const char **what)
{
	uint64_t handled = FS_EXECUTE;
	int rs;

	*what = "programs: Landlock, which limits what the command may "
	    "start (the kernel has none)";
	if ((rs = (int)syscall(SYS_ll_create_ruleset, &handled,
	    sizeof(handled), 0)) < 0)
		return -1;
	*what = command;
	if (allow_exec(rs, command) < 0)
		goto fail;
	for (size_t i = 0; i < f->programs.n; i++) {
		*what = f->programs.v[i];
		if (allow_exec(rs, f->programs.v[i]) < 0)
			goto fail;
	}
	*what = "landlock_restrict_self";
	if (prctl(PR_SET_NO_NEW_PRIVS_, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_ll_restrict_self, rs, 0) < 0)
		goto fail;
	close(rs);
	return 0;
fail:
	close(rs);
	return -1;
}

int final_exec(const struct final *f, char *const *argv, char *const *envp,
    const char **what)
{
	static struct prog p;
	struct fprog fp;
	uint32_t s[4];

	*what = "getrandom";
	if (getrandom(s, sizeof(s), 0) != (ssize_t)sizeof(s))
		return -1;
	if (f->programs.n > 0 && exec_layer(f, argv[0], what) < 0)
		return -1;
	*what = "the seccomp listener for executable mappings";
	if (f->map_sock >= 0 && mapwatch_install(f->map_sock) < 0)
		return -1;
	/* EINVAL before 6.3: the filter below says the same. */
	if (!f->wx)
		prctl(PR_SET_MDWE_, MDWE_REFUSE_EXEC_GAIN, 0, 0, 0);
	p.n = 0;
	filter_build(&p, f, s);
	fp = (struct fprog){ p.n, p.v };
	*what = "seccomp";
	if (prctl(PR_SET_NO_NEW_PRIVS_, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP_, SECCOMP_MODE_FILTER_, &fp, 0, 0) < 0)
		return -1;
	*what = argv[0];
	syscall(SYS_execve, argv[0], argv, envp,
	    (long)((uint64_t)s[1] << 32 | s[0]),
	    (long)((uint64_t)s[3] << 32 | s[2]), 0L);
	return -1;
}

void final_of(const struct policy *pol, const char *command,
    struct final *f)
{
	f->wx = pol->allow_wx;
	f->map_sock = -1;
	f->programs = (struct strv){ 0 };
	strv_pushn(&f->programs, (const char *const *)pol->programs.v,
	    pol->programs.n);
	/* binShell execs the command: both execute, nothing else. */
	if (pol->bin_shell != NULL)
		strv_push(&f->programs, command);
}
