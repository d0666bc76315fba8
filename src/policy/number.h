/* number.h: the numbers of the policy's JSON (cJSON's strtod). */
#ifndef SBEXEC_NUMBER_H
#define SBEXEC_NUMBER_H

/* A JSON number at S, as strtod returns it: the value and, in *END, the
 * first character after it (S itself when none is there). */
double policy_strtod(const char *s, char **end);

#endif
