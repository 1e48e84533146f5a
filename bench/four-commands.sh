#!/bin/sh
# What users had before session-hooks: the four git commands the Node
# script ran at a session start, each its own process.
git branch --show-current
git log --oneline -5
git status --short
git diff --stat '@{upstream}...HEAD' 2>/dev/null || true
