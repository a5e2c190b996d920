package subtitles

import (
	"errors"
	"strings"
	"testing"
)

// The W3C WebVTT specification's own examples (§1 Introduction and §4
// Syntax), each with the cues a transcript keeps.
var specExamples = []struct {
	name string
	file string
	want []Cue
}{
	{"voices (§1.2)", `WEBVTT

00:11.000 --> 00:13.000
<v Roger Bingham>We are in New York City

00:13.000 --> 00:16.000
<v Roger Bingham>We’re actually at the Lucern Hotel, just down the street

00:16.000 --> 00:18.000
<v Roger Bingham>from the American Museum of Natural History

00:18.000 --> 00:20.000
<v Roger Bingham>And with me is Neil deGrasse Tyson

00:20.000 --> 00:22.000
<v Roger Bingham>Astrophysicist, Director of the Hayden Planetarium

00:22.000 --> 00:24.000
<v Roger Bingham>at the AMNH.

00:24.000 --> 00:26.000
<v Roger Bingham>Thank you for walking down here.

00:27.000 --> 00:30.000
<v Roger Bingham>And I want to do a follow-up on the last conversation we did.

00:30.000 --> 00:31.500 align:right size:50%
<v Neil deGrasse Tyson>When we e-mailed—

00:30.500 --> 00:32.500 align:left size:50%
<v Roger Bingham>Didn’t we talk about enough in that conversation?

00:32.000 --> 00:35.500 align:right size:50%
<v Neil deGrasse Tyson>No! No no no no; 'cos 'cos obviously 'cos

00:32.500 --> 00:33.500 align:left size:50%
<v Roger Bingham><i>Laughs</i>

00:35.500 --> 00:38.000
<v Neil deGrasse Tyson>You know I’m so excited my glasses are falling off here.
`, []Cue{
		{11, 13, "We are in New York City"},
		{13, 16, "We’re actually at the Lucern Hotel, just down the street"},
		{16, 18, "from the American Museum of Natural History"},
		{18, 20, "And with me is Neil deGrasse Tyson"},
		{20, 22, "Astrophysicist, Director of the Hayden Planetarium"},
		{22, 24, "at the AMNH."},
		{24, 26, "Thank you for walking down here."},
		{27, 30, "And I want to do a follow-up on the last conversation we did."},
		{30, 31.5, "When we e-mailed—"},
		{30.5, 32.5, "Didn’t we talk about enough in that conversation?"},
		{32, 35.5, "No! No no no no; 'cos 'cos obviously 'cos"},
		{32.5, 33.5, "Laughs"},
		{35.5, 38, "You know I’m so excited my glasses are falling off here."},
	}},
	{"comments (§1.3)", `WEBVTT

NOTE
This file was written by Jill. I hope
you enjoy reading it. Some things to
bear in mind:
- I was lip-reading, so the cues may
not be 100% accurate
- I didn’t pay too close attention to
when the cues should start or end.

1
00:01.000 --> 00:02.000
<v Jill>Hello.

NOTE check next cue

2
00:02.000 --> 00:03.000
What’s that?

3
00:03.000 --> 00:04.000
<v Jill>A <b>Matter</b> of &lt;time&gt; &amp; place.
`, []Cue{{1, 2, "Hello."}, {2, 3, "What’s that?"}, {3, 4, "A Matter of <time> & place."}}},
	{"styles (§1.4)", `WEBVTT

STYLE
::cue {
  background-image: linear-gradient(to bottom, dimgray, lightgray);
  color: papayawhip;
}
/* Style blocks cannot use blank lines nor "dash dash greater than" */

NOTE comment blocks can be used between style blocks.

STYLE
::cue(b) {
  color: peachpuff;
}

00:00:00.000 --> 00:00:10.000
- Hello <b>world</b>.

NOTE style blocks cannot appear after the first cue.
`, []Cue{{0, 10, "- Hello world."}}},
	{"regions and header (§1.5)", `WEBVTT
Kind: captions
Language: en

REGION
id:fred
width:40%
lines:3
regionanchor:0%,100%
viewportanchor:10%,90%
scroll:up

REGION
id:bill
width:40%
lines:3
regionanchor:100%,100%
viewportanchor:90%,90%
scroll:up

00:00:00.000 --> 00:00:20.000 region:fred align:left
<v Fred>Hi, my name is Fred

00:00:02.500 --> 00:00:22.500 region:bill align:right
<v Bill>Hi, I’m Bill

00:00:05.000 --> 00:00:25.000 region:fred align:left
<v Fred>Would you like to get a coffee?
`, []Cue{{0, 20, "Hi, my name is Fred"}, {2.5, 22.5, "Hi, I’m Bill"}, {5, 25, "Would you like to get a coffee?"}}},
	{"identifiers and settings (§4.1)", `WEBVTT - This file has cues.

14
00:01:14.815 --> 00:01:18.114
- What?
- Where are we now?

crédit de transcription
00:01:18.171 --> 00:01:20.991 position:10%,line-left align:left size:35%
- This is big bat country.

00:01:21.058 --> 00:01:23.868
- [ Bats Screeching ]
- They won't get in your hair. They're after the bugs.
`, []Cue{
		{74.815, 78.114, "- What? - Where are we now?"},
		{78.171, 80.991, "- This is big bat country."},
		{81.058, 83.868, "- [ Bats Screeching ] - They won't get in your hair. They're after the bugs."},
	}},
	{"karaoke timestamps and classes (§4.2)", `WEBVTT

00:16.500 --> 00:18.500
When the moon <00:17.500>hits your eye

00:00:18.500 --> 00:00:20.500
Like a <c.big.pizza>big-a pizza pie</c>
`, []Cue{{16.5, 18.5, "When the moon hits your eye"}, {18.5, 20.5, "Like a big-a pizza pie"}}},
}

func near(a, b []Cue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Text != b[i].Text || a[i].Start-b[i].Start > 1e-9 || b[i].Start-a[i].Start > 1e-9 ||
			a[i].End-b[i].End > 1e-9 || b[i].End-a[i].End > 1e-9 {
			return false
		}
	}
	return true
}

// TestWebVTTSpecExamples: the spec's examples parse into their cues, with
// NOTE, STYLE and REGION blocks and the header skipped, identifiers and
// cue settings ignored, hours optional, voices and other tags removed.
func TestWebVTTSpecExamples(t *testing.T) {
	for _, ex := range specExamples {
		got, err := Parse(ex.file)
		if err != nil || !near(got, ex.want) {
			t.Errorf("%s: %v\n got %+v\nwant %+v", ex.name, err, got, ex.want)
		}
		// The same file with a byte order mark and CRLF line ends.
		got, err = Parse("\uFEFF" + strings.ReplaceAll(ex.file, "\n", "\r\n"))
		if err != nil || !near(got, ex.want) {
			t.Errorf("%s with BOM and CRLF: %v %+v", ex.name, err, got)
		}
	}
}

// TestSRT: SubRip with comma decimals, a BOM, CRLF, formatting tags and
// SSA overrides.
func TestSRT(t *testing.T) {
	file := "\uFEFF1\r\n00:00:01,600 --> 00:00:04,200\r\nWelcome to the <i>session</i>.\r\n\r\n" +
		"2\r\n00:00:05,900 --> 00:00:07,999\r\n{\\an8}Agents remember\r\n<font color=\"red\">what matters</font>.\r\n\r\n" +
		"3\r\n01:02:03,004 --> 01:02:04,000 X1:100 X2:200 Y1:10 Y2:20\r\nLate.\r\n"
	want := []Cue{{1.6, 4.2, "Welcome to the session."}, {5.9, 7.999, "Agents remember what matters."}, {3723.004, 3724, "Late."}}
	got, err := Parse(file)
	if err != nil || !near(got, want) {
		t.Errorf("got %+v %v", got, err)
	}
}

// TestMalformedNamesTheLine: each malformed file is refused with the
// number of the line at fault.
func TestMalformedNamesTheLine(t *testing.T) {
	for _, c := range []struct {
		file string
		line int
	}{
		{"WEBVTTX\n\n00:01.000 --> 00:02.000\nHi\n", 1},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:01.00 --> 00:02.000\nBad millis\n", 6},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\nid\nno timing here\n", 7},
		{"WEBVTT\n\n00:05.000 --> 00:02.000\nBackwards\n", 3},
		{"WEBVTT\n\n00:61.000 --> 01:02.000\nSixty-one seconds\n", 3},
		{"WEBVTT\n\n00:01.000 -->\nNo end\n", 3},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nOne\n00:02.000 --> 00:03.000\nTwo without a blank line\n", 5},
		{"1\n00:00:01,000 --> 00:00:02,000\nHi\n\nx\n00:00:03,000 --> 00:00:04,000\nNo number\n", 5},
		{"1\n00:00:01 --> 00:00:02\nNo millis\n", 2},
		{"Just some pasted text.\n", 1},
		{"WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:02.000 -> 00:03.000\nBroken arrow\n", 6},
		{"1\n00:00:01,000 -> 00:00:02,000\nBroken arrow\n", 2},
	} {
		_, err := Parse(c.file)
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line {
			t.Errorf("%q: %v, want line %d", c.file, err, c.line)
		}
	}
	if got, err := Parse("WEBVTT\n"); err != nil || len(got) != 0 {
		t.Errorf("empty file: %v %v", got, err)
	}
}
