/* trust.h: may a file be trusted as policy? Every directory on its way. */
#ifndef SBEXEC_TRUST_H
#define SBEXEC_TRUST_H

/* Walk FILE from the root, following symbolic links the way the kernel
 * would, and check every directory passed through, as sshd's StrictModes
 * and sudo do: owned by root or the invoking user, not writable by group
 * or others unless sticky, and then the entry in it owned by root or the
 * user. Returns 0, or -1 with the reason, allocated, in *WHY. */
int trust_path(const char *file, char **why);

#endif
