module example.invalid/robotstxt-adapter

go 1.19
