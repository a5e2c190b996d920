package auth

import "tribe/internal/mail"

// The e-mails the account rules send. Links come from TRIBE_BASE_URL.

func confirmMail(to, name, link string) mail.Message {
	heading := "Welcome to the tribe"
	if name != "" {
		heading = "Welcome, " + name
	}
	return mail.Compose(mail.Content{
		To:      to,
		Subject: "Confirm your e-mail address",
		Heading: heading,
		Paragraphs: []string{
			"Thanks for signing up. Please confirm your e-mail address so we know it is yours.",
			"Open the link in the browser where you signed up, or sign in there first: it only works for the account that is signed in. It works once and for 24 hours. After confirming you land in the members area.",
		},
		Button: &mail.Link{Label: "Confirm my e-mail address", URL: link},
		Footer: "You received this because someone signed up with this address. If it was not you, ignore this message and no account will be confirmed.",
	})
}

func resetMail(to, link string) mail.Message {
	return mail.Compose(mail.Content{
		To:      to,
		Subject: "Reset your password",
		Heading: "Reset your password",
		Paragraphs: []string{
			"Someone asked to reset the password of the account with this e-mail address.",
			"Open the link below to choose a new password. It works once and for one hour. Setting a new password signs out every other device.",
		},
		Button: &mail.Link{Label: "Choose a new password", URL: link},
		Footer: "If you did not ask for this, ignore this message: your password stays as it is.",
	})
}

func signUpAttemptMail(to, base string) mail.Message {
	return mail.Compose(mail.Content{
		To:      to,
		Subject: "Someone tried to sign up with your e-mail address",
		Heading: "You already have an account",
		Paragraphs: []string{
			"Someone just tried to create a new account with this e-mail address. No new account was created: this address already has one.",
			"If it was you, sign in instead. If you forgot your password, you can reset it from the sign-in page.",
		},
		Button: &mail.Link{Label: "Sign in", URL: base + "/auth"},
		Footer: "If it was not you, you can ignore this message: nothing about your account changed.",
	})
}

func passwordChangedMail(to, base string) mail.Message {
	return mail.Compose(mail.Content{
		To:      to,
		Subject: "Your password was changed",
		Heading: "Your password was changed",
		Paragraphs: []string{
			"The password of your account was just changed with a reset link, and every other signed-in device was signed out.",
			"If you did this, there is nothing more to do. If you did not, reset your password again right away and check your mailbox's security.",
		},
		Button: &mail.Link{Label: "Go to sign in", URL: base + "/auth"},
	})
}
