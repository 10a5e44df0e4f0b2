# Where everything goes on install, read from the platform: udev's, dracut's
# and bash-completion's pkg-config files name their directories (the
# fallbacks are Debian 12's). Binaries go to sbin, the man pages to sections
# 5 and 8 (man/), the policy to /etc without replacing one that is there.
# The udev rule, the dracut module and the initramfs-tools hook and scripts
# are configured with the paths they name.

function(drvfilter_pkg_dir var module variable fallback)
  pkg_get_variable(dir ${module} ${variable})
  if(NOT dir)
    set(dir ${fallback})
  endif()
  set(${var} ${dir} PARENT_SCOPE)
endfunction()

drvfilter_pkg_dir(UDEV_DIR udev udevdir /lib/udev)
drvfilter_pkg_dir(DRACUT_MODULES_DIR dracut dracutmodulesdir /usr/lib/dracut/modules.d)
drvfilter_pkg_dir(DRACUT_CONF_DIR dracut dracutconfdir /usr/lib/dracut/dracut.conf.d)
drvfilter_pkg_dir(SYSTEMD_UNIT_DIR systemd systemdsystemunitdir /lib/systemd/system)
drvfilter_pkg_dir(BASH_COMPLETION_DIR bash-completion completionsdir
                  ${CMAKE_INSTALL_FULL_DATADIR}/bash-completion/completions)

set(DRVFILTER_UDEV_RULES_DIR ${UDEV_DIR}/rules.d)
# The helper loads libkmod when it first needs it (src/libdrvfilter/system/kmod-dlopen.h):
# the image builders put it into the image by name, as no ldd sees it.
drvfilter_pkg_dir(KMOD_LIBDIR libkmod libdir /usr/lib/x86_64-linux-gnu)
set(DRVFILTER_LIBKMOD ${KMOD_LIBDIR}/libkmod.so.2)
get_filename_component(DRVFILTER_POLICY_DIR ${DRVFILTER_POLICY_PATH} DIRECTORY)
# Recordings of the kernels this system boots (drvfilterctl record), one per
# release, where the kernel-install plugin looks for its kernel's init calls.
set(DRVFILTER_RECORDS_DIR /var/lib/drvfilter/records)

# The rule and the module name the helper's path, which --prefix may change
# at install time: they are configured then, not at configure time.
function(drvfilter_install_configured template destination permissions)
  get_filename_component(name ${template} NAME_WLE)
  install(CODE "
    if(IS_ABSOLUTE \"${CMAKE_INSTALL_SBINDIR}\")
      set(DRVFILTER_SBINDIR \"${CMAKE_INSTALL_SBINDIR}\")
    else()
      set(DRVFILTER_SBINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_SBINDIR}\")
    endif()
    set(DRVFILTER_POLICY_PATH \"${DRVFILTER_POLICY_PATH}\")
    set(DRVFILTER_POLICY_DIR \"${DRVFILTER_POLICY_DIR}\")
    set(DRVFILTER_UDEV_RULES_DIR \"${DRVFILTER_UDEV_RULES_DIR}\")
    set(DRVFILTER_SYSTEMD_UNIT_DIR \"${SYSTEMD_UNIT_DIR}\")
    set(DRVFILTER_LIBKMOD \"${DRVFILTER_LIBKMOD}\")
    set(DRVFILTER_RECORDS_DIR \"${DRVFILTER_RECORDS_DIR}\")
    # A directory of this install's own: installs may run side by side.
    string(RANDOM LENGTH 12 tag)
    set(dir \"${PROJECT_BINARY_DIR}/configured/\${tag}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/${template}\" \"\${dir}/${name}\" @ONLY)
    file(INSTALL \"\${dir}/${name}\" DESTINATION \"${destination}\"
         FILE_PERMISSIONS ${permissions})
    file(REMOVE_RECURSE \"\${dir}\")")
endfunction()

set(readable OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
set(executable ${readable} OWNER_EXECUTE GROUP_EXECUTE WORLD_EXECUTE)
drvfilter_install_configured(udev-rules/90-drvfilter.rules.in ${DRVFILTER_UDEV_RULES_DIR}
                             "${readable}")
foreach(script module-setup.sh drvfilter-apply-hook.sh drvfilter-pivot-hook.sh)
  drvfilter_install_configured(dracut-module/90drvfilter/${script}.in
                               ${DRACUT_MODULES_DIR}/90drvfilter "${executable}")
endforeach()
drvfilter_install_configured(dracut-module/99drvfilter-blacklist/module-setup.sh.in
                             ${DRACUT_MODULES_DIR}/99drvfilter-blacklist "${executable}")

# initramfs-tools (Debian's and Ubuntu's default builder): its hook and the
# two boot scripts, where mkinitramfs reads them (a fixed path, whatever the
# prefix, as dracut's modules directory is).
set(INITRAMFS_TOOLS_DIR /usr/share/initramfs-tools)
drvfilter_install_configured(initramfs-tools/hooks/zz-drvfilter.in ${INITRAMFS_TOOLS_DIR}/hooks
                             "${executable}")
foreach(dir init-top init-bottom)
  drvfilter_install_configured(initramfs-tools/scripts/${dir}/drvfilter.in
                               ${INITRAMFS_TOOLS_DIR}/scripts/${dir} "${executable}")
endforeach()

# kernel-install's plugins (systemd-boot and unified kernel images): the boot
# options of each kernel installed, before the plugins that read them.
set(KERNEL_INSTALL_DIR /usr/lib/kernel/install.d)
drvfilter_install_configured(kernel-install/15-drvfilter.install.in ${KERNEL_INSTALL_DIR}
                             "${executable}")

# mkosi's drop-in (a directory to copy into an image's mkosi.conf.d/).
set(mkosi_dropin mkosi/mkosi.conf.d/50-drvfilter)
install(FILES ${mkosi_dropin}/mkosi.conf DESTINATION ${CMAKE_INSTALL_DATADIR}/drvfilter/${mkosi_dropin})
install(PROGRAMS ${mkosi_dropin}/mkosi.postinst
        DESTINATION ${CMAKE_INSTALL_DATADIR}/drvfilter/${mkosi_dropin})

# The unit that applies the policy again from the real root, pulled in by a
# sysinit.target.wants link beside it, as systemd's own early units are: no
# preset or missing postinst leaves a firewall off; systemctl mask does.
# Its twin for a systemd initrd runs before coldplug there (skipped outside
# an initrd), linked the same way, so that an initrd built from the
# installed files (mkosi) carries it enabled.
foreach(unit drvfilter-apply drvfilter-apply-initrd)
  drvfilter_install_configured(systemd/${unit}.service.in ${SYSTEMD_UNIT_DIR} "${readable}")
  install(CODE "
    set(wants \"\$ENV{DESTDIR}${SYSTEMD_UNIT_DIR}/sysinit.target.wants\")
    file(MAKE_DIRECTORY \"\${wants}\")
    file(CREATE_LINK ../${unit}.service \"\${wants}/${unit}.service\" SYMBOLIC)
    message(STATUS \"Installing: \${wants}/${unit}.service -> ../${unit}.service\")")
endforeach()

# Every initramfs dracut builds carries the module, whatever list of modules it is given.
install(FILES dracut-module/50-drvfilter.conf DESTINATION ${DRACUT_CONF_DIR})

install(FILES completion/drvfilterctl completion/drvfilter-apply DESTINATION ${BASH_COMPLETION_DIR})

# The shipped policy: its pristine copy, and /etc's unless the admin has one.
install(FILES conf/drvfilter.conf DESTINATION ${CMAKE_INSTALL_DATADIR}/drvfilter)
# Alerting rules for status --format=prometheus's metrics (monitoring/).
install(FILES monitoring/drvfilter.rules.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/drvfilter/prometheus)
# Profiles for the guests people run (generate --profile NAME).
install(DIRECTORY conf/profiles/ DESTINATION ${CMAKE_INSTALL_DATADIR}/drvfilter/profiles
        FILES_MATCHING PATTERN "*.conf")
install(CODE "
  set(policy \"\$ENV{DESTDIR}${DRVFILTER_POLICY_PATH}\")
  if(EXISTS \"\${policy}\")
    message(STATUS \"Keeping: \${policy} (the shipped one is in \${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/drvfilter)\")
  else()
    file(INSTALL \"${PROJECT_SOURCE_DIR}/conf/drvfilter.conf\"
         DESTINATION \"${DRVFILTER_POLICY_DIR}\"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()")
