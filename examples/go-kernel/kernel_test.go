package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"
)

// fixtures.json holds what longrun's TypeScript kernel computes for the same inputs
// (testdata/make-fixtures.ts); the port must give the same answers, byte for byte.
type fixtures struct {
	History      []Message `json:"history"`
	HistoryBytes int       `json:"historyBytes"`
	Sizes        []struct {
		Message Message `json:"message"`
		Bytes   int     `json:"bytes"`
	} `json:"sizes"`
	Hashes []struct {
		Event     json.RawMessage `json:"event"`
		Canonical string          `json:"canonical"`
		Hash      string          `json:"hash"`
	} `json:"hashes"`
	Guard []struct {
		Target, BigItem, Overhead                          int
		Exhaustive, CountsScreenshots, ElidesAssistantText bool
		Result                                             struct {
			Messages    []Message `json:"messages"`
			BytesBefore int       `json:"bytesBefore"`
			BytesAfter  int       `json:"bytesAfter"`
			Fits        bool      `json:"fits"`
			Elided      []struct {
				Message int    `json:"message"`
				Part    *int   `json:"part"`
				Kind    string `json:"kind"`
				Bytes   int    `json:"bytes"`
				Savings int    `json:"savings"`
			} `json:"elided"`
		} `json:"result"`
	} `json:"guard"`
	Rebuild []struct {
		TailMaxBytes int `json:"tailMaxBytes"`
		Result       struct {
			Messages []Message `json:"messages"`
			Kept     int       `json:"kept"`
			Dropped  int       `json:"dropped"`
		} `json:"result"`
	} `json:"rebuild"`
	Digest string `json:"digest"`
	Cards  []struct {
		Card    string  `json:"card"`
		Problem *string `json:"problem"`
	} `json:"cards"`
}

func loadFixtures(t *testing.T) fixtures {
	t.Helper()
	data, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixtures
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Hashes) == 0 || len(f.Guard) == 0 || len(f.Rebuild) == 0 || len(f.Sizes) == 0 || f.Digest == "" {
		t.Fatal("testdata/fixtures.json is incomplete: run testdata/make-fixtures.ts")
	}
	return f
}

func decodeGeneric(t *testing.T, raw []byte) any {
	t.Helper()
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		t.Fatal(err)
	}
	return value
}

func TestJournalHashIsTheTypeScriptHash(t *testing.T) {
	for i, vector := range loadFixtures(t).Hashes {
		event := decodeGeneric(t, vector.Event)
		canonical, err := canonicalJSON(event)
		if err != nil {
			t.Fatal(err)
		}
		if string(canonical) != vector.Canonical {
			t.Errorf("event %d: canonical JSON\n got %s\nwant %s", i, canonical, vector.Canonical)
		}
		if hash, _ := journalHash(event); hash != vector.Hash {
			t.Errorf("event %d: hash %s, want %s", i, hash, vector.Hash)
		}
	}
}

func TestJournalAppendChainsAndRejects(t *testing.T) {
	f := loadFixtures(t)
	batch := []byte(`{"events":[` + string(f.Hashes[0].Event) + `]}`)
	result, err := JournalAppend(nil, batch)
	if err != nil || len(result.Hashes) != 1 || result.Hashes[0] != f.Hashes[0].Hash {
		t.Fatalf("append: %v %v", result, err)
	}
	broken := []byte(`{"events":[` + string(f.Hashes[0].Event) + `,` + string(f.Hashes[1].Event) + `]}`)
	if _, err := JournalAppend(nil, broken); err == nil {
		t.Fatal("a batch whose second event does not name the first's hash was accepted")
	}
	if _, err := JournalAppend(nil, []byte(`{"events":[{"type":"nope"}]}`)); err == nil {
		t.Fatal("an unknown journal type was accepted")
	}
}

func TestJSONBytesAreJSONStringifyBytes(t *testing.T) {
	f := loadFixtures(t)
	for i, size := range f.Sizes {
		if got := jsonBytes(size.Message); got != size.Bytes {
			t.Errorf("message %d: %d bytes, want %d", i, got, size.Bytes)
		}
	}
	if got := messagesBytes(f.History); got != f.HistoryBytes {
		t.Errorf("history: %d bytes, want %d", got, f.HistoryBytes)
	}
	if got := jsonBytes(Message{Role: "assistant"}); got != len(`{"role":"assistant","content":null}`) {
		t.Errorf("an assistant message without content: %d bytes", got)
	}
}

func TestJSNumberIsNumberToString(t *testing.T) {
	for value, want := range map[float64]string{0: "0", 1: "1", -2.5: "-2.5", 1e21: "1e+21", 1e-7: "1e-7", 123456789012: "123456789012", 0.000001: "0.000001", 1.5e300: "1.5e+300"} {
		if got := jsNumber(value); got != want {
			t.Errorf("jsNumber(%v) = %s, want %s", value, got, want)
		}
	}
}

func TestGuardIsTheTypeScriptGuard(t *testing.T) {
	f := loadFixtures(t)
	for i, c := range f.Guard {
		got := guardMessages(f.History, c.Overhead, c.Target, c.BigItem, guardPolicy{c.Exhaustive, c.CountsScreenshots, c.ElidesAssistantText})
		want := c.Result
		if got.bytesBefore != want.BytesBefore || got.bytesAfter != want.BytesAfter || got.fits != want.Fits || len(got.elided) != len(want.Elided) {
			t.Fatalf("case %d: before %d after %d fits %v elided %d; want %d %d %v %d", i,
				got.bytesBefore, got.bytesAfter, got.fits, len(got.elided), want.BytesBefore, want.BytesAfter, want.Fits, len(want.Elided))
		}
		for j, item := range want.Elided {
			part := -1
			if item.Part != nil {
				part = *item.Part
			}
			wantItem := elidableItem{item.Message, part, elidableKind(item.Kind), item.Bytes, item.Savings}
			if got.elided[j] != wantItem {
				t.Errorf("case %d item %d: %+v, want %+v", i, j, got.elided[j], wantItem)
			}
		}
		if !bytes.Equal(marshalPlain(got.messages), marshalPlain(want.Messages)) {
			t.Errorf("case %d: the guarded messages differ", i)
		}
	}
}

func TestRebuildIsTheTypeScriptRebuild(t *testing.T) {
	f := loadFixtures(t)
	card := f.Cards[0].Card
	for _, c := range f.Rebuild {
		got, err := rebuildMessages(f.History, card, c.TailMaxBytes, specRebuild)
		if err != nil {
			t.Fatal(err)
		}
		if got.kept != c.Result.Kept || got.dropped != c.Result.Dropped {
			t.Errorf("tail %d: kept %d dropped %d, want %d %d", c.TailMaxBytes, got.kept, got.dropped, c.Result.Kept, c.Result.Dropped)
		}
		if !bytes.Equal(marshalPlain(got.messages), marshalPlain(c.Result.Messages)) {
			t.Errorf("tail %d: the rebuilt messages differ", c.TailMaxBytes)
		}
	}
}

func TestSplitGroupControlSplitsAGroup(t *testing.T) {
	f := loadFixtures(t)
	got, _ := rebuildMessages(f.History, f.Cards[0].Card, 20_000, rebuildOptions{splitsGroups: true, tailMinGroups: 2, tailMaxGroups: 8})
	if first := got.messages[3]; first.Role != "tool" {
		t.Fatalf("the tail starts with a %s message, not a tool result without its call", first.Role)
	}
}

func TestDigestAndCardAreTheTypeScriptOnes(t *testing.T) {
	f := loadFixtures(t)
	if got := buildDigest(f.History); got != f.Digest {
		t.Errorf("digest differs:\n got %q\nwant %q", got, f.Digest)
	}
	for i, c := range f.Cards {
		want := ""
		if c.Problem != nil {
			want = *c.Problem
		}
		if got := cardProblem(c.Card, 8192); got != want {
			t.Errorf("card %d: %q, want %q", i, got, want)
		}
	}
}

func TestResolveLimitsNamesTheBadField(t *testing.T) {
	if _, err := resolveLimits(map[string]any{"blobLimitBytes": 1.5}); err == nil || err.Error() != "limits.blobLimitBytes must be a positive integer, got 1.5" {
		t.Errorf("got %v", err)
	}
	if _, err := resolveLimits(map[string]any{"nope": 1.0}); err == nil || err.Error() != "limits.nope is not a known limit" {
		t.Errorf("got %v", err)
	}
	limits, err := resolveLimits(map[string]any{"tailMaxBytes": 32768.0})
	if err != nil || !reflect.DeepEqual(limits, KernelLimits{defaultBlobLimit, defaultTrigger, defaultCANBytes, defaultCardMax, 32768}) {
		t.Errorf("got %+v %v", limits, err)
	}
}

func TestRetryAfter(t *testing.T) {
	for header, want := range map[string]int64{"": 0, "2": 2000, "0.5": 500, "999": 30000, "soon": 0} {
		if got := retryAfter(header, timeNow()).Milliseconds(); got != want {
			t.Errorf("Retry-After %q: %d ms, want %d", header, got, want)
		}
	}
}

func timeNow() time.Time { return time.Unix(1_800_000_000, 0) }
