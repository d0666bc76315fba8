/* prof.h: where one call's time goes, for make bench only. Built with
 * -DSBEXEC_PROFILE (build/prof/sbexec, never installed), each mark
 * records the time since the one before, and at exit the steps are
 * appended to the file named by SBEXEC_PROFILE, one line each ("STEP\t
 * NANOSECONDS") and an empty line after the call. Without it a mark is
 * nothing at all. */
#ifndef SBEXEC_PROF_H
#define SBEXEC_PROF_H

#ifdef SBEXEC_PROFILE
/* STEP just ended: a string that lives until exit; NULL starts. */
void prof_mark(const char *step);
#else
#define prof_mark(step) ((void)0)
#endif

#endif
