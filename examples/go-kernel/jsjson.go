// JSON as JavaScript writes it: sizes (UTF-8 bytes of JSON.stringify) and the journal's
// canonical JSON (keys sorted in UTF-16 order at every depth, numbers as Number#toString).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonBytes is the UTF-8 length of JSON.stringify(v). Go's encoder writes strings as
// JSON.stringify does, but for U+2028 and U+2029, which it escapes (6 bytes, 3 raw).
func jsonBytes(v any) int {
	out := marshalPlain(v)
	n := len(out)
	for i := 0; i < len(out); i++ {
		if out[i] != '\\' {
			continue
		}
		if i+5 < len(out) && out[i+1] == 'u' && (string(out[i+2:i+6]) == "2028" || string(out[i+2:i+6]) == "2029") {
			n -= 3
		}
		i++
	}
	return n
}

// canonicalJSON of a value decoded with UseNumber (or built of maps, slices, strings,
// numbers, bools and nil): the exact text longrun's canonicalJson gives the same JSON.
func canonicalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := appendCanonical(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendCanonical(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case string:
		appendJSString(buf, x)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return fmt.Errorf("number %s: %w", x, err)
		}
		buf.WriteString(jsNumber(f))
	case float64:
		buf.WriteString(jsNumber(x))
	case int:
		buf.WriteString(jsNumber(float64(x)))
	case []any:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := appendCanonical(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			appendJSString(buf, k)
			buf.WriteByte(':')
			if err := appendCanonical(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("canonical JSON: unsupported %T", v)
	}
	return nil
}

// utf16Less compares as JavaScript's `<` on strings does: by UTF-16 code units.
func utf16Less(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// appendJSString writes a string as JSON.stringify does: only ", \ and control characters
// escaped (\b \t \n \f \r short, the rest \u00xx); everything else, U+2028 included, raw.
func appendJSString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\t':
			buf.WriteString(`\t`)
		case '\n':
			buf.WriteString(`\n`)
		case '\f':
			buf.WriteString(`\f`)
		case '\r':
			buf.WriteString(`\r`)
		default:
			if r < 0x20 {
				fmt.Fprintf(buf, `\u%04x`, r)
			} else if r == utf8.RuneError {
				buf.WriteString("\uFFFD")
			} else {
				buf.WriteRune(r)
			}
		}
	}
	buf.WriteByte('"')
}

// jsNumber is Number.prototype.toString for a finite double (ECMAScript Number::toString).
func jsNumber(f float64) string {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		if f == 0 {
			return "0"
		}
		return "null" // JSON.stringify writes NaN and Infinity as null
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// Shortest round-trip digits d.ddd and exponent e: value = 0.ddd × 10^n with n = e + 1.
	mantissa, expText, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	digits := strings.Replace(mantissa, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	e := "+"
	if n-1 < 0 {
		e = "-"
	}
	abs := n - 1
	if abs < 0 {
		abs = -abs
	}
	if k == 1 {
		return sign + digits + "e" + e + strconv.Itoa(abs)
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + e + strconv.Itoa(abs)
}

// journalHash is sha256 over the canonical JSON of an event decoded from its JSON.
func journalHash(event any) (string, error) {
	text, err := canonicalJSON(event)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(text)
	return hex.EncodeToString(sum[:]), nil
}
