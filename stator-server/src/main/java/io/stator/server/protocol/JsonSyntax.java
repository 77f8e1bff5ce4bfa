package io.stator.server.protocol;

import java.nio.ByteBuffer;

/**
 * Whether a request body is JSON text as the request reader takes it, decided a chunk at a time
 * as the body streams past, in constant memory (a bit per level of nesting): for a request whose
 * answer its headers already decide but for one thing, whether its body is JSON at all, since
 * DynamoDB answers a body that is not with SerializationException before it looks at the target
 * or the signature (see {@code DynamoDbEndpoint}). Such a body is never held whole.
 *
 * <h2>The same verdict as the reader</h2>
 *
 * <p>The verdict must be the one {@link RequestReader#parse} reaches on the whole body (or, for a
 * target that names no operation, the endpoint's check, which takes several values in a row):
 * {@link JsonText}'s rules (UTF-8 by RFC 3629, no NUL, every escaped surrogate paired), then
 * Jackson's grammar as configured there: RFC 8259 with none of Jackson's leniencies (no
 * comments, single quotes, unquoted names, leading zeros or plus signs, NaN, trailing commas or
 * control characters in strings), an optional UTF-8 byte order mark, nesting at most 1,000
 * deep, numbers of at most 1,000 digits, and, for the endpoint's check only, names of at most
 * 50,000 bytes once their escapes are decoded, in UTF-8 (Jackson's defaults:
 * StreamReadConstraints; its byte parser measures a name so). {@code JsonSyntaxTest} holds
 * the two to the same verdicts on hand-picked and random bodies.
 *
 * <p>Not thread-safe: one instance per body, fed in order.
 */
public final class JsonSyntax {

    /** Jackson's default nesting limit (StreamReadConstraints.DEFAULT_MAX_DEPTH), also the reader's. */
    static final int MAX_DEPTH = 1000;
    /** Jackson's default limit on a number's digits (StreamReadConstraints.DEFAULT_MAX_NUM_LEN). */
    static final int MAX_NUMBER_DIGITS = 1000;
    /** Jackson's default limit on a name (StreamReadConstraints.DEFAULT_MAX_NAME_LEN), in UTF-8 bytes. */
    public static final int DEFAULT_MAX_NAME_BYTES = 50_000;

    // What the next byte may be.
    private static final int START = 0;          // the very first byte: a byte order mark may come
    private static final int BOM = 1;            // inside the byte order mark
    private static final int VALUE = 2;          // a value (white space first)
    private static final int FIRST_NAME = 3;     // a name or '}', just after '{'
    private static final int NAME = 4;           // a name, after ','
    private static final int COLON = 5;
    private static final int AFTER_VALUE = 6;    // ',' or a closing bracket, or the end at the root
    private static final int STRING = 7;
    private static final int ESCAPE = 8;         // after a backslash in a string
    private static final int HEX = 9;            // in the four hex digits of \\u
    private static final int LOW_BACKSLASH = 10; // a high surrogate's escape was read: "\\" must follow
    private static final int LOW_U = 11;         // ... then 'u'
    private static final int UTF8 = 12;          // in a multi-byte character of a string
    private static final int NUMBER = 13;
    private static final int LITERAL = 14;
    private static final int FAILED = 15;
    private static final int AFTER_LITERAL_AT_ROOT = 16; // where values may follow one another: see step

    // Where a number is.
    private static final int MINUS = 0, ZERO = 1, INTEGER = 2, POINT = 3, FRACTION = 4, E = 5, E_SIGN = 6,
            EXPONENT = 7;

    private static final byte[][] LITERALS = {
            "true".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
            "false".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
            "null".getBytes(java.nio.charset.StandardCharsets.US_ASCII)};

    private final boolean oneValue;
    private final int maxNameBytes;

    private int state = START;
    private int depth;
    /** Bit {@code d} set: level {@code d} is an object, else an array. */
    private final long[] objects = new long[MAX_DEPTH / 64 + 1];
    /** Some value was read at the root. */
    private boolean rootValue;

    private boolean inName;
    private long nameBytes;
    private int hexDigits;
    private int hexValue;
    /** The escape being read is the low half of a surrogate pair. */
    private boolean lowHalf;
    private int utf8Left;
    private int utf8Min;
    private int utf8Max;
    private int numberPart;
    private int numberDigits;
    private byte[] literal;
    private int literalAt;
    private int bomAt;

    /**
     * @param oneValue     true for the reader's rule (one value, white space around it); false for
     *                     the endpoint's check of a body whose target names no operation (values
     *                     in a row, as Jackson reads them)
     * @param maxNameBytes the longest name, in UTF-8 bytes once decoded; {@code Integer.MAX_VALUE} for none
     */
    public JsonSyntax(boolean oneValue, int maxNameBytes) {
        this.oneValue = oneValue;
        this.maxNameBytes = maxNameBytes;
    }

    /** Reads the next bytes of the body; false once it is known not to be JSON (feed no more). */
    public boolean feed(ByteBuffer bytes) {
        while (bytes.hasRemaining() && state != FAILED) {
            int b = bytes.get() & 0xFF;
            // The bulk of a large body: plain characters of a string, read without the dispatch.
            if (state == STRING && !inName && b >= 0x20 && b < 0x80 && b != '"' && b != '\\') continue;
            step(b);
        }
        return state != FAILED;
    }

    /** As {@link #feed(ByteBuffer)}, for part of an array. */
    public boolean feed(byte[] bytes, int offset, int length) {
        return feed(ByteBuffer.wrap(bytes, offset, length));
    }

    /** Whether the bytes fed are a whole body of JSON text (some bytes were fed). */
    public boolean isJson() {
        if (state == NUMBER && depth == 0) {
            endNumber();
            if (state == FAILED) return false;
        }
        return rootValue && depth == 0 && (state == AFTER_VALUE || state == AFTER_LITERAL_AT_ROOT);
    }

    private void step(int b) {
        switch (state) {
            case START -> {
                if (b == 0xEF) {
                    state = BOM;
                    bomAt = 1;
                } else {
                    state = VALUE;
                    step(b);
                }
            }
            case BOM -> {
                if (b != (bomAt == 1 ? 0xBB : 0xBF)) fail();
                else if (++bomAt == 3) state = VALUE;
            }
            case VALUE -> value(b);
            case FIRST_NAME -> {
                if (b == '}') closeContainer(true);
                else if (b == '"') startString(true);
                else if (!isWhiteSpace(b)) fail();
            }
            case NAME -> {
                if (b == '"') startString(true);
                else if (!isWhiteSpace(b)) fail();
            }
            case COLON -> {
                if (b == ':') state = VALUE;
                else if (!isWhiteSpace(b)) fail();
            }
            case AFTER_VALUE -> afterValue(b);
            case STRING -> string(b);
            case ESCAPE -> escape(b);
            case HEX -> hex(b);
            case LOW_BACKSLASH -> {
                if (b == '\\') state = LOW_U;
                else fail(); // a high surrogate alone
            }
            case LOW_U -> {
                if (b == 'u') {
                    lowHalf = true;
                    startHex();
                } else {
                    fail();
                }
            }
            case UTF8 -> {
                if (b < utf8Min || b > utf8Max) {
                    fail();
                    return;
                }
                utf8Min = 0x80;
                utf8Max = 0xBF;
                if (--utf8Left == 0) state = STRING;
            }
            case NUMBER -> number(b);
            case LITERAL -> {
                if (b != literal[literalAt]) {
                    fail();
                } else if (++literalAt == literal.length) {
                    valueDone();
                    if (depth == 0 && !oneValue) state = AFTER_LITERAL_AT_ROOT;
                }
            }
            case AFTER_LITERAL_AT_ROOT -> {
                // Jackson refuses a letter, digit or '_' right after a literal ("truex"): it would
                // read one token of them.
                if (b >= '0' && (Character.isLetterOrDigit(b) || b == '_' || b >= 0x7F)) {
                    fail();
                } else {
                    state = AFTER_VALUE;
                    afterValue(b);
                }
            }
            default -> fail();
        }
    }

    private void value(int b) {
        switch (b) {
            case '{' -> openContainer(true);
            case '[' -> openContainer(false);
            case '"' -> startString(false);
            case 't' -> startLiteral(LITERALS[0]);
            case 'f' -> startLiteral(LITERALS[1]);
            case 'n' -> startLiteral(LITERALS[2]);
            case '-' -> startNumber(MINUS, 0);
            case '0' -> startNumber(ZERO, 1);
            case ']' -> {
                // "[]": an array closed before its first value
                if (depth > 0 && !isObject(depth) && justOpened) closeContainer(false);
                else fail();
            }
            default -> {
                if (b >= '1' && b <= '9') startNumber(INTEGER, 1);
                else if (!isWhiteSpace(b)) fail();
            }
        }
    }

    /** The array just opened has no value yet (so ']' may close it). */
    private boolean justOpened;

    private void afterValue(int b) {
        if (isWhiteSpace(b)) return;
        if (depth == 0) {
            if (oneValue) {
                fail();
            } else {
                state = VALUE;
                value(b);
            }
            return;
        }
        boolean object = isObject(depth);
        if (b == ',') {
            state = object ? NAME : VALUE;
            justOpened = false;
        } else if (b == (object ? '}' : ']')) {
            closeContainer(object);
        } else {
            fail();
        }
    }

    private void openContainer(boolean object) {
        if (depth == MAX_DEPTH) {
            fail();
            return;
        }
        depth++;
        long bit = 1L << (depth & 63);
        if (object) objects[depth >> 6] |= bit;
        else objects[depth >> 6] &= ~bit;
        state = object ? FIRST_NAME : VALUE;
        justOpened = !object;
    }

    private void closeContainer(boolean object) {
        depth--;
        justOpened = false;
        valueDone();
    }

    private boolean isObject(int level) {
        return (objects[level >> 6] & 1L << (level & 63)) != 0;
    }

    /** A value ended: at the root, or inside a container. */
    private void valueDone() {
        justOpened = false;
        if (depth == 0) rootValue = true;
        state = AFTER_VALUE;
    }

    private void startString(boolean name) {
        inName = name;
        nameBytes = 0;
        justOpened = false;
        state = STRING;
    }

    private void string(int b) {
        if (b == '"') {
            if (inName) {
                state = COLON;
            } else {
                valueDone();
            }
            return;
        }
        if (b < 0x20) {
            fail(); // a control character, NUL included, must be escaped
            return;
        }
        if (b == '\\') {
            state = ESCAPE;
            return;
        }
        if (b < 0x80) {
            countNameBytes(1);
            return;
        }
        // RFC 3629 section 4: no overlong form, no surrogate, nothing past U+10FFFF.
        if (b >= 0xC2 && b <= 0xDF) {
            startUtf8(1, 0x80, 0xBF);
        } else if (b >= 0xE0 && b <= 0xEF) {
            startUtf8(2, b == 0xE0 ? 0xA0 : 0x80, b == 0xED ? 0x9F : 0xBF);
        } else if (b >= 0xF0 && b <= 0xF4) {
            startUtf8(3, b == 0xF0 ? 0x90 : 0x80, b == 0xF4 ? 0x8F : 0xBF);
        } else {
            fail();
        }
    }

    private void startUtf8(int continuations, int min, int max) {
        utf8Left = continuations;
        utf8Min = min;
        utf8Max = max;
        state = UTF8;
        countNameBytes(continuations + 1);
    }

    private void escape(int b) {
        switch (b) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                state = STRING;
                countNameBytes(1);
            }
            case 'u' -> {
                lowHalf = false;
                startHex();
            }
            default -> fail();
        }
    }

    private void startHex() {
        hexDigits = 0;
        hexValue = 0;
        state = HEX;
    }

    private void hex(int b) {
        int digit = b >= '0' && b <= '9' ? b - '0'
                : b >= 'a' && b <= 'f' ? b - 'a' + 10
                : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
        if (digit < 0) {
            fail();
            return;
        }
        hexValue = hexValue << 4 | digit;
        if (++hexDigits < 4) return;
        boolean high = hexValue >= 0xD800 && hexValue <= 0xDBFF;
        boolean low = hexValue >= 0xDC00 && hexValue <= 0xDFFF;
        if (lowHalf) {
            if (!low) fail(); // a high surrogate followed by anything but a low one
            else state = STRING;
        } else if (low) {
            fail(); // a low surrogate with no high one before it
        } else if (high) {
            state = LOW_BACKSLASH;
            countNameBytes(4); // the pair's character, in UTF-8
        } else {
            state = STRING;
            countNameBytes(hexValue < 0x80 ? 1 : hexValue < 0x800 ? 2 : 3);
        }
    }

    /** Counts bytes of a name; call it after setting the next state, which a failure here replaces. */
    private void countNameBytes(int bytes) {
        if (inName && (nameBytes += bytes) > maxNameBytes) fail();
    }

    private void startLiteral(byte[] word) {
        literal = word;
        literalAt = 1;
        justOpened = false;
        state = LITERAL;
    }

    private void startNumber(int part, int digits) {
        numberPart = part;
        numberDigits = digits;
        justOpened = false;
        state = NUMBER;
    }

    private void number(int b) {
        boolean digit = b >= '0' && b <= '9';
        switch (numberPart) {
            case MINUS -> {
                if (b == '0') numberPart = ZERO;
                else if (digit) numberPart = INTEGER;
                else {
                    fail();
                    return;
                }
                numberDigits++;
            }
            case ZERO, INTEGER -> {
                if (digit) {
                    if (numberPart == ZERO) {
                        fail(); // Jackson: leading zeroes not allowed
                        return;
                    }
                    numberDigits++;
                } else if (b == '.') {
                    numberPart = POINT;
                } else if (b == 'e' || b == 'E') {
                    numberPart = E;
                } else {
                    endNumber(b);
                }
            }
            case POINT -> {
                if (!digit) {
                    fail();
                    return;
                }
                numberPart = FRACTION;
                numberDigits++;
            }
            case FRACTION -> {
                if (digit) numberDigits++;
                else if (b == 'e' || b == 'E') numberPart = E;
                else endNumber(b);
            }
            case E -> {
                if (b == '+' || b == '-') numberPart = E_SIGN;
                else if (digit) {
                    numberPart = EXPONENT;
                    numberDigits++;
                } else fail();
            }
            case E_SIGN -> {
                if (!digit) {
                    fail();
                    return;
                }
                numberPart = EXPONENT;
                numberDigits++;
            }
            case EXPONENT -> {
                if (digit) numberDigits++;
                else endNumber(b);
            }
            default -> fail();
        }
        if (state == NUMBER && numberDigits > MAX_NUMBER_DIGITS) fail();
    }

    /** The number ended at the end of the body. */
    private void endNumber() {
        if (numberPart == MINUS || numberPart == POINT || numberPart == E || numberPart == E_SIGN) {
            fail();
        } else {
            valueDone();
        }
    }

    /** The number ended at byte {@code b}, which is then read in its own right. */
    private void endNumber(int b) {
        valueDone();
        // Jackson wants white space between a number and whatever follows it at the root.
        if (depth == 0 && !oneValue && !isWhiteSpace(b)) {
            fail();
            return;
        }
        afterValue(b);
    }

    private static boolean isWhiteSpace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private void fail() {
        state = FAILED;
    }
}
