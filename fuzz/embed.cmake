# Writes the bytes of IN as a comma-separated list of char literals to OUT.
file(READ ${IN} _hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," _c "${_hex}")
string(REGEX REPLACE ",$" "" _c "${_c}")
file(WRITE ${OUT} "${_c}\n")
