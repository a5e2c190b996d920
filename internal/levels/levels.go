// Package levels holds the tribe's five levels and what a member has done
// towards them: the level table and the one pure function that reads a
// level from counts (Compute), the awards an admin gives or accepts
// (contributions, mentoring, workshops), and a member's progress, counted
// from attendance, projects shared and awards every time it is read. A
// level is never stored. It owns the tables awards and level_notices.
package levels

// Counts is what a member has done, each counted from its rows.
type Counts struct {
	Attended, Projects, Contributions, Mentored, Workshops int
}

// Requirement is one threshold of a level: at least Need of the count Key.
type Requirement struct {
	// Key names the count, as the progress JSON does ("attended", ...).
	Key string
	// Label is how the count reads on the level dialog ("Sessions").
	Label string
	Need  int
}

// Level is one step of the progression.
type Level struct {
	Name         string
	Requirements []Requirement
}

// Level names, in order.
const (
	Apprentice  = "Apprentice"
	Contributor = "Contributor"
	Builder     = "Builder"
	Expert      = "Expert"
	Master      = "Master"
)

// Table is the spec's five levels ("Tribal level requirements"), in order.
// Apprentice asks nothing beyond joining.
var Table = []Level{
	{Name: Apprentice},
	{Name: Contributor, Requirements: []Requirement{{"attended", "Sessions", 3}, {"contributions", "Contributions", 1}}},
	{Name: Builder, Requirements: []Requirement{{"attended", "Sessions", 8}, {"projects", "Projects", 3}}},
	{Name: Expert, Requirements: []Requirement{{"attended", "Sessions", 15}, {"projects", "Projects", 5}, {"mentored", "Members mentored", 2}}},
	{Name: Master, Requirements: []Requirement{{"attended", "Sessions", 25}, {"projects", "Projects", 10}, {"workshops", "Workshops led", 1}}},
}

// of reads the count a requirement is about.
func (c Counts) of(key string) int {
	switch key {
	case "attended":
		return c.Attended
	case "projects":
		return c.Projects
	case "contributions":
		return c.Contributions
	case "mentored":
		return c.Mentored
	case "workshops":
		return c.Workshops
	}
	return 0
}

// Standing is a member's level as computed from their counts.
type Standing struct {
	Level string
	// Rank is the level's place in Table, from 1 (Apprentice) to 5.
	Rank int
	// Next is nil at the last level.
	Next *Milestone
}

// Compute is the one rule for a member's level: the highest level whose
// requirements, and those of every level before it, the counts meet. A
// level is climbed in order, so 8 sessions and 3 projects without a
// contribution is still Apprentice: Contributor comes first.
func Compute(c Counts) Standing {
	rank := 1
	for rank < len(Table) && meets(c, Table[rank]) {
		rank++
	}
	st := Standing{Level: Table[rank-1].Name, Rank: rank}
	if rank < len(Table) {
		st.Next = milestone(c, Table[rank])
	}
	return st
}

func meets(c Counts, l Level) bool {
	for _, r := range l.Requirements {
		if c.of(r.Key) < r.Need {
			return false
		}
	}
	return true
}

func milestone(c Counts, l Level) *Milestone {
	m := &Milestone{Level: l.Name, Requirements: make([]Step, 0, len(l.Requirements))}
	sum := 0.0
	for _, r := range l.Requirements {
		have := c.of(r.Key)
		m.Requirements = append(m.Requirements, Step{Key: r.Key, Label: r.Label, Have: have, Need: r.Need, Done: have >= r.Need})
		sum += min(1, float64(have)/float64(r.Need))
	}
	if len(l.Requirements) > 0 {
		m.Fraction = sum / float64(len(l.Requirements))
	}
	return m
}

// RankOf is a level name's place in Table (1 to 5), 0 for an unknown name.
func RankOf(name string) int {
	for i, l := range Table {
		if l.Name == name {
			return i + 1
		}
	}
	return 0
}
