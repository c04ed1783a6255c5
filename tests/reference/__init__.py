"""CPU test suite of fos-reference (a package so its helper modules import relatively)."""
