"""A small parallel documentation corpus (English and Simplified Chinese), written by the tests
(also used by the command-line tests)."""

from __future__ import annotations

from pathlib import Path

_EN = [
    ("_install", "1.1. Installing packages", [
        "The <code>apt</code> tool can install 42 packages in one run. It is the tool most users should learn first.",
        "A full installation needs about 250 MB of disk space. The download is 80 MB for the base system.",
        "You can remove a package with <code>dpkg</code> as well. The removal keeps the configuration files.",
    ]),
    ("_upgrade", "1.2. Upgrading the system", [
        "The release of 2021 brought 11294 new packages. Upgrading takes about 30 minutes on a fast machine.",
        "Users should read the release notes before they upgrade. The notes are published by the release team.",
        "An upgrade is not reversible without a backup. Make a backup of <code>/etc</code> first.",
    ]),
    ("_network", "1.3. Network configuration", [
        "The network is configured by <code>ifupdown</code> on servers. Desktop systems use <code>NetworkManager</code> instead.",
        "A static address needs 4 settings: the address, the netmask, the gateway and the name server.",
        "Wireless networks can be managed from the panel. The password is stored in the keyring.",
    ]),
    ("_logs", "1.4. System logs", [
        "The journal keeps logs for 30 days by default. Old entries are deleted when the disk is 90% full.",
        "The <code>journalctl</code> command shows the logs of one unit. It can follow new entries as they arrive.",
    ]),
]
_ZH = [
    ("_install", "1.1. 安装软件包", [
        "<code>apt</code> 工具一次可以安装 42 个软件包。它是大多数用户应该首先学习的工具。",
        "完整安装需要大约 250 MB 的磁盘空间。基本系统的下载\n大小为 80 MB。",
        "你也可以用 <code>dpkg</code> 删除软件包。删除时会保留配置文件。",
    ]),
    ("_upgrade", "1.2. 升级系统", [
        "2021 年的发行版带来了 11294 个新软件包。在快速的机器上升级大约需要 30 分钟。",
        "用户在升级之前应该阅读发行说明。发行说明由发布团队发布。",
        "没有备份，升级是不可逆的。请先备份 <code>/etc</code>。",
    ]),
    ("_network", "1.3. 网络配置", [
        "服务器上的网络由 <code>ifupdown</code> 配置。桌面系统改用 <code>NetworkManager</code>。",
        "静态地址需要 4 项设置：地址、子网掩码、网关和域名服务器。",
        "无线网络可以在面板中管理。密码保存在密钥环中。",
    ]),
    ("_logs", "1.4. 系统日志", [
        "日志默认保留 30 天。磁盘使用达到 90% 时会删除旧条目。",
        "<code>journalctl</code> 命令显示一个单元的日志。它可以在新条目到达时跟踪它们。",
    ]),
]


def _html(sections: list[tuple[str, str, list[str]]]) -> str:
    body = ['<div class="toc"><p>Table of contents 1.1 1.2 1.3 should not be read as prose at all.</p></div>']
    for anchor, title, paras in sections:
        body.append(f'<div class="section"><h2 class="title"><a id="{anchor}"/>{title}</h2>')
        body.extend(f"<p>{p}</p>" for p in paras)
        body.append("<pre class=\"screen\">$ sudo apt install 12345 packages right now please</pre></div>")
    return "<html><head><title>Guide</title></head><body>" + "\n".join(body) + "</body></html>"


def write_corpus(root: Path) -> Path:
    """Create ``root`` with ``guide.en.html`` and its translation ``guide.zh-cn.html``."""
    root.mkdir()
    (root / "guide.en.html").write_text(_html(_EN), encoding="utf-8")
    (root / "guide.zh-cn.html").write_text(_html(_ZH), encoding="utf-8")
    return root
