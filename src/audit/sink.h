/* sink.h: "audit": "auto" decided for this run (sbexec.json(5)). */
#ifndef SBEXEC_SINK_H
#define SBEXEC_SINK_H

#include "policy/policy.h"

/* Where "auto" sends records when no syslog socket accepts them: root's
 * file, and each other user's under their home. */
#define SINK_ROOT_DIR "/var/log/sbexec"
#define SINK_USER_DIR ".local/state/sbexec"
#define SINK_FILE "audit.jsonl"
#define SINK_SYSLOG "/dev/log"

/* A datagram socket connected to SINK_SYSLOG, or -1 with errno set:
 * the "syslog" sink's (audit.c), and what "auto" tries first. */
int sink_syslog(void);

/* When POL's audit is "auto", the sink for this run, in POL and in each
 * command's own policy: the system log where its socket (/dev/log)
 * accepts a connection; else a file the invoking user may write in a
 * directory that only they (root: only root) may change, made if it is
 * missing (SINK_ROOT_DIR for root, ~/SINK_USER_DIR for others); else
 * stderr. Anything else is left as the policy says. */
void sink_choose(struct policy *pol);

/* POL's sink as --check and the start record name it: "stderr",
 * "syslog" or the file's path. */
const char *sink_name(const struct policy *pol);

/* Why "auto" chose what it did, for --check and the start record;
 * NULL unless the policy said "auto". */
const char *sink_why(void);

#endif
