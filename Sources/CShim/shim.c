#include "CShim.h"

int cshim_version(void) { return 1; }
