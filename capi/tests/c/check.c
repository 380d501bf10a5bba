/* The counts of check.h, one pair per program. */
#include "check.h"

unsigned long passed, failed;
