// clang crashes on purpose on this pragma: the CLI must report a one-line error (exit 2),
// not a stack dump. Not a fuzzer input (torchlint_fuzz skips __debug pragmas).
#pragma clang __debug crash
int x;
