// Command hello is the baseline for forge's start-up benchmark: the
// smallest Go program that prints a line.
package main

import "fmt"

func main() { fmt.Println("hello") }
