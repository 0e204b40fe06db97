package org.springframework.boot.loader.launch;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Stands in for Spring Boot's {@code LaunchedClassLoader} (which lives in this package
 * inside a packaged jar), for {@code RunContextTests}.
 *
 * @author EchoMQ
 */
public class StandInLaunchedClassLoader extends URLClassLoader {

	public StandInLaunchedClassLoader(ClassLoader parent) {
		super(new URL[0], parent);
	}

}
