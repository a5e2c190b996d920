package transfer

// ImportReport is the answer of POST /api/admin/import/members: what the
// file changes (or, in a dry run, would change) and every row refused.
type ImportReport struct {
	DryRun bool `json:"dry_run"`
	// Rows is the number of records read, the header not counted.
	Rows      int `json:"rows"`
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	// Changes lists the rows that create or change something, in file order.
	Changes []ImportChange `json:"changes"`
	// Refused lists the rows left out, in file order; nothing of them is written.
	Refused []ImportRefusal `json:"refused"`
}

// ImportChange is one row that creates an account or changes a membership.
type ImportChange struct {
	// Row is the line's record number in the file, the header being row 1.
	Row      int    `json:"row"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
	// Action is "create" (a new account) or "update".
	Action string `json:"action" tstype:"'create' | 'update'"`
	// Details say what changes, one sentence each.
	Details []string `json:"details"`
}

// ImportRefusal is one row left out, and why.
type ImportRefusal struct {
	Row    int    `json:"row"`
	Email  string `json:"email"`
	Reason string `json:"reason"`
}
