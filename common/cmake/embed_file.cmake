# cmake -DINPUT=file -DOUTPUT=file.c -DSYMBOL=name -P embed_file.cmake
# Writes `const char name[] = {...};` holding INPUT's bytes and a terminating NUL. Bytes rather
# than a string literal: no escaping, and no limit on literal length.
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n"
       bytes "${bytes}")
get_filename_component(name ${INPUT} NAME)
file(WRITE ${OUTPUT}.tmp "/* Generated from ${name} by embed_file.cmake: do not edit. */\n"
                         "const char ${SYMBOL}[] = {\n${bytes}0x00};\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
