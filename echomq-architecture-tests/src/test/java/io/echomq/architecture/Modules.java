package io.echomq.architecture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * The compiled classes the checks read: every published module's main classes from the
 * test class path, and the two applications' classes from their build directories.
 *
 * @author EchoMQ
 */
final class Modules {

	/** The modules whose main code may use internal packages besides their own. */
	static final Set<String> MAY_USE_INTERNALS = Set.of("echomq-core", "echomq-spring-boot-autoconfigure");

	/** The repository's root, where the module directories are. */
	static final Path ROOT = Path.of("").toAbsolutePath().getParent();

	private static final Pattern MODULE = Pattern.compile("/(echomq-[a-z0-9-]+|sample-app|readme-app)/target/");

	private static final Pattern JAR = Pattern.compile("/(echomq-[a-z0-9-]+?)-\\d[^/]*\\.jar");

	private static JavaClasses main;

	private static JavaClasses applications;

	private Modules() {
	}

	static synchronized JavaClasses main() {
		if (main == null) {
			main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
				.withImportOption(Modules::notGenerated)
				.importPackages("io.echomq");
		}
		return main;
	}

	static synchronized JavaClasses applications() {
		if (applications == null) {
			List<Path> directories = List
				.of("sample-app/target/classes", "sample-app/target/test-classes", "readme-app/target/classes",
						"readme-app/target/test-classes")
				.stream()
				.map(ROOT::resolve)
				.toList();
			for (Path directory : directories) {
				if (!Files.isDirectory(directory)) {
					throw new IllegalStateException(
							directory + " is missing: build the applications first (the reactor "
									+ "builds them before this module)");
				}
			}
			applications = new ClassFileImporter().withImportOption(Modules::notGenerated).importPaths(directories);
		}
		return applications;
	}

	/**
	 * Whether a class file is not one Spring AOT generated for an application
	 * ({@code __BeanDefinitions} and the like, which name what the auto-configuration
	 * wires).
	 */
	private static boolean notGenerated(Location location) {
		return !location.contains("__") && !location.contains("$$SpringCGLIB$$");
	}

	/**
	 * Return the module a class was compiled in, from where it was read.
	 */
	static String moduleOf(JavaClass type) {
		String uri = type.getSource().map((source) -> source.getUri().toString()).orElse("");
		Matcher module = MODULE.matcher(uri);
		if (module.find()) {
			return module.group(1);
		}
		Matcher jar = JAR.matcher(uri);
		return jar.find() ? jar.group(1) : uri;
	}

	static boolean isInternal(JavaClass type) {
		return (type.getPackageName() + ".").contains(".internal.") && type.getPackageName().startsWith("io.echomq");
	}

	/**
	 * Whether a type is public API: public, in a package that is not internal, and every
	 * type enclosing it public too.
	 */
	static boolean isApi(JavaClass type) {
		if (isInternal(type) || !type.getPackageName().startsWith("io.echomq")) {
			return false;
		}
		Optional<JavaClass> current = Optional.of(type);
		while (current.isPresent()) {
			if (!current.get().getModifiers().contains(JavaModifier.PUBLIC) || current.get().isAnonymousClass()) {
				return false;
			}
			current = current.get().getEnclosingClass();
		}
		return true;
	}

}
