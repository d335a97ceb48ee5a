module robotstxt-conformance.invalid/adapters

go 1.21

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
)
