#include "CShim.h"
