/// Shell lines that scripts of the tests begin with.
enum ShellPrelude {
    /// Closes every descriptor but 0, 1 and 2 (bash: dash takes no descriptor above 9): a program that leaves a process behind (xclip and
    /// xsel fork servers, `pass -c` a process that restores the clipboard later) would keep the
    /// one Foundation's `Process` watches for the script's end, and the test would wait for it.
    static let closingInheritedDescriptors = """
        for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done

        """
}
