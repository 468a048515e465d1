#!/bin/sh
# Checks that the ICD library exports exactly the three loader entry points, so that none of the driver's
# functions can clash with (or be preferred over) the ICD loader's own clXxx symbols.
# usage: check_exports.sh <library>
set -u
expected="clGetExtensionFunctionAddress
clGetExtensionFunctionAddressForPlatform
clIcdGetPlatformIDsKHR"
actual=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TWVDBRiu]$/ {print $3}' | sed 's/@.*//' | sort)
if [ "$actual" != "$expected" ]; then
  echo "FAIL: $1 exports:"
  echo "$actual"
  exit 1
fi
echo "exports OK"
